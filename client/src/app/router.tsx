import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import type { PlatformId } from '@/config/platforms';
import { HomePage } from '@/features/marketing/routes/home-page';
import type { PlaceholderKey } from '@/features/marketing/data/placeholder-pages';
import { RootLayout } from './layout/root-layout';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';

// Only the home page ships in the entry chunk; every other page loads on demand.
const lazyNamed = <P extends object>(load: () => Promise<Record<string, unknown>>, name: string) =>
  lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));

const PlaceholderPage = lazyNamed<{ page: PlaceholderKey }>(() => import('@/features/marketing/routes/placeholder-page'), 'PlaceholderPage');
const PlatformPage = lazyNamed<{ platform: PlatformId }>(() => import('@/features/marketing/routes/platform-page'), 'PlatformPage');
const LoginPage = lazyNamed(() => import('@/features/auth/routes/login-page'), 'LoginPage');
const RegisterPage = lazyNamed(() => import('@/features/auth/routes/register-page'), 'RegisterPage');
const ForgotPasswordPage = lazyNamed(() => import('@/features/auth/routes/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('@/features/auth/routes/reset-password-page'), 'ResetPasswordPage');
const VerifyOtpPage = lazyNamed(() => import('@/features/auth/routes/verify-otp-page'), 'VerifyOtpPage');
const ProfilePage = lazyNamed(() => import('@/features/profile/routes/profile-page'), 'ProfilePage');
const NewsPage = lazyNamed(() => import('@/features/news/routes/news-page'), 'NewsPage');
const NewsItemPage = lazyNamed(() => import('@/features/news/routes/news-item-page'), 'NewsItemPage');
const SecurityPage = lazyNamed(() => import('@/features/security/routes/security-page'), 'SecurityPage');

const placeholderRoutes: readonly [string, PlaceholderKey][] = [
  [paths.jobs.path, 'jobs'],
  [paths.about.path, 'about'],
  [paths.contact.path, 'contact'],
  [paths.solutions.path, 'solutions'],
  [paths.resources.path, 'resources'],
  [paths.company.path, 'company'],
  [paths.legal.privacyPolicy.path, 'privacyPolicy'],
  [paths.legal.termsService.path, 'termsService'],
  [paths.legal.cookiePolicy.path, 'cookiePolicy'],
  [paths.accessibility.path, 'accessibility'],
  [paths.status.path, 'status'],
];

const platformIds: readonly PlatformId[] = ['hire', 'campus', 'career'];

export const routes: RouteObject[] = [
  {
    path: paths.home.path,
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      ...placeholderRoutes.map(([path, page]) => ({ path, element: <PlaceholderPage page={page} /> })),
      ...platformIds.map((platform) => ({ path: paths.platforms[platform].path, element: <PlatformPage platform={platform} /> })),
      // The home page cards and pricing plans link to /hire, /campus and /career.
      ...platformIds.map((platform) => ({
        path: paths.platformShortcuts[platform].path,
        element: <Navigate to={paths.platforms[platform].getHref()} replace />,
      })),
      { path: paths.auth.login.path, element: <LoginPage /> },
      { path: paths.auth.register.path, element: <RegisterPage /> },
      { path: paths.auth.forgotPassword.path, element: <ForgotPasswordPage /> },
      { path: paths.auth.resetPassword.path, element: <ResetPasswordPage /> },
      // A reset link without its token has nothing to reset (the page redirects).
      { path: paths.auth.resetPasswordWithoutToken.path, element: <ResetPasswordPage /> },
      { path: paths.auth.verifyOtp.path, element: <VerifyOtpPage /> },
      { path: paths.profile.path, element: <ProfilePage /> },
      { path: paths.security.path, element: <SecurityPage /> },
      { path: paths.news.path, element: <NewsPage /> },
      { path: paths.newsItem.path, element: <NewsItemPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
