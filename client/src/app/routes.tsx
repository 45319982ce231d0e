import { lazy, type ComponentType, type ReactElement } from 'react';
import { matchPath, Navigate, Route, Routes } from 'react-router-dom';
import { paths } from '@/config/paths';
import type { PlatformId } from '@/config/platforms';
import { HomePage } from '@/features/marketing/routes/home-page';
import type { PlaceholderKey } from '@/features/marketing/data/placeholder-pages';
import { RootLayout } from './layout/root-layout';

// Only the home page ships in the entry chunk; every other page loads on demand. The routes
// are declarative (<Routes>, not a data router): nothing here loads data before rendering,
// and the declarative half of react-router is a third of the size.
type LazyPage<P> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A page loaded on demand. Once `preload` has run, the page renders at once instead of
 * suspending: the browser preloads the page it opens on before hydrating the prerendered
 * HTML, so that HTML is adopted as it stands rather than swapped for the loading state.
 */
function lazyNamed<P extends object>(load: () => Promise<Record<string, unknown>>, name: string): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module[name] as ComponentType<P>;
    });
  const Deferred = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType<P> };
  });
  const Page = (props: P) => {
    const Component = loaded ?? Deferred;
    return <Component {...props} />;
  };
  return Object.assign(Page, { preload });
}

const PlaceholderPage = lazyNamed<{ page: PlaceholderKey }>(() => import('@/features/marketing/routes/placeholder-page'), 'PlaceholderPage');
const PlatformPage = lazyNamed<{ platform: PlatformId }>(() => import('@/features/marketing/routes/platform-page'), 'PlatformPage');
const LoginPage = lazyNamed(() => import('@/features/auth/routes/login-page'), 'LoginPage');
const RegisterPage = lazyNamed(() => import('@/features/auth/routes/register-page'), 'RegisterPage');
const ForgotPasswordPage = lazyNamed(() => import('@/features/auth/routes/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('@/features/auth/routes/reset-password-page'), 'ResetPasswordPage');
const MagicLinkPage = lazyNamed(() => import('@/features/auth/routes/magic-link-page'), 'MagicLinkPage');
const VerifyOtpPage = lazyNamed(() => import('@/features/auth/routes/verify-otp-page'), 'VerifyOtpPage');
const ProfilePage = lazyNamed(() => import('@/features/profile/routes/profile-page'), 'ProfilePage');
const NewsPage = lazyNamed(() => import('@/features/news/routes/news-page'), 'NewsPage');
const NewsItemPage = lazyNamed(() => import('@/features/news/routes/news-item-page'), 'NewsItemPage');
const SecurityPage = lazyNamed(() => import('@/features/security/routes/security-page'), 'SecurityPage');
const OrganizationsPage = lazyNamed(() => import('@/features/organizations/routes/organizations-page'), 'OrganizationsPage');
const OrganizationPage = lazyNamed(() => import('@/features/organizations/routes/organization-page'), 'OrganizationPage');
const InvitationPage = lazyNamed(() => import('@/features/organizations/routes/invitation-page'), 'InvitationPage');
// The admin console: one chunk of its own, for admins only (everyone else sees the 404 page).
const AdminConsolePage = lazyNamed(() => import('./routes/admin-console'), 'AdminConsolePage');
const NotFoundPage = lazyNamed(() => import('./routes/not-found'), 'NotFoundPage');

export const placeholderRoutes: readonly [string, PlaceholderKey][] = [
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

type PageRoute = { path: string; element: ReactElement; page?: { preload: () => Promise<void> } };

/** Every page of the site (SPEC.md section 2) under the shared layout, in matching order. */
const pageRoutes: readonly PageRoute[] = [
  ...placeholderRoutes.map(([path, page]) => ({ path, element: <PlaceholderPage page={page} />, page: PlaceholderPage })),
  ...platformIds.map((platform) => ({
    path: paths.platforms[platform].path,
    element: <PlatformPage platform={platform} />,
    page: PlatformPage,
  })),
  // The home page cards and pricing plans link to /hire, /campus and /career.
  ...platformIds.map((platform) => ({
    path: paths.platformShortcuts[platform].path,
    element: <Navigate to={paths.platforms[platform].getHref()} replace />,
  })),
  { path: paths.auth.login.path, element: <LoginPage />, page: LoginPage },
  { path: paths.auth.register.path, element: <RegisterPage />, page: RegisterPage },
  { path: paths.auth.forgotPassword.path, element: <ForgotPasswordPage />, page: ForgotPasswordPage },
  { path: paths.auth.resetPassword.path, element: <ResetPasswordPage />, page: ResetPasswordPage },
  // A reset link without its token has nothing to reset (the page redirects).
  { path: paths.auth.resetPasswordWithoutToken.path, element: <ResetPasswordPage />, page: ResetPasswordPage },
  { path: paths.auth.verifyOtp.path, element: <VerifyOtpPage />, page: VerifyOtpPage },
  { path: paths.auth.magicLink.path, element: <MagicLinkPage />, page: MagicLinkPage },
  { path: paths.profile.path, element: <ProfilePage />, page: ProfilePage },
  { path: paths.security.path, element: <SecurityPage />, page: SecurityPage },
  { path: paths.organizations.path, element: <OrganizationsPage />, page: OrganizationsPage },
  { path: paths.organization.path, element: <OrganizationPage />, page: OrganizationPage },
  { path: paths.invitation.path, element: <InvitationPage />, page: InvitationPage },
  { path: paths.news.path, element: <NewsPage />, page: NewsPage },
  { path: paths.newsItem.path, element: <NewsItemPage />, page: NewsItemPage },
  { path: paths.admin.path, element: <AdminConsolePage />, page: AdminConsolePage },
  { path: '*', element: <NotFoundPage />, page: NotFoundPage },
];

/** Loads the code of the page at `pathname`, so that it renders without suspending. */
export async function preloadPage(pathname: string): Promise<void> {
  if (pathname === paths.home.path) return;
  const route = pageRoutes.find(({ path }) => matchPath(path, pathname));
  await route?.page?.preload();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path={paths.home.path} element={<RootLayout />}>
        <Route index element={<HomePage />} />
        {pageRoutes.map(({ path, element }) => (
          <Route key={path} path={path} element={element} />
        ))}
      </Route>
    </Routes>
  );
}
