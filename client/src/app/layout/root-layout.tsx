import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { markAppReady } from '@/lib/app-ready';
import { useConfig } from '@/lib/config-context';
import { useThemeSync } from '@/lib/use-theme';
import { Footer } from './footer';
import { Header } from './header';
import { PageLoading } from './page-loading';
import { RouteErrorBoundary } from '../routes/route-error';

// Developer tools are only ever downloaded when the environment is 'local'.
const DevTools = lazy(() => import('../dev-tools').then((module) => ({ default: module.DevTools })));

/**
 * After a client-side navigation, focus moves to <main> so keyboard and screen-reader users
 * start at the new page instead of on a link inside a menu that has just closed.
 */
function useFocusMainOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * A link to another page starts it at the top (or at its #fragment); back and forward leave
 * the position to the browser, which restores it.
 */
function useScrollOnNavigation() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigationType === 'POP') return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
}

/** False in the prerendered HTML and the render that hydrates it; true from then on. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/**
 * Sits beside the page, inside its Suspense boundary, so its effect runs once the page itself
 * is live (React brings a boundary's HTML to life after the layout around it): from then on a
 * form is the app's, and one sent earlier is sent again.
 */
function PageReady() {
  useEffect(markAppReady, []);
  return null;
}

/**
 * Shared layout of every page: skip link, sticky header, main landmark, footer. It also keeps
 * the site's theme in step with the session (the user's preference, or the system's).
 */
export function RootLayout() {
  const { isLocal } = useConfig();
  const { pathname } = useLocation();
  const mounted = useMounted();
  useFocusMainOnNavigation();
  useScrollOnNavigation();
  useThemeSync();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-indigo-700 px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
            <PageReady />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      {isLocal && mounted ? (
        <Suspense fallback={null}>
          <DevTools />
        </Suspense>
      ) : null}
    </div>
  );
}
