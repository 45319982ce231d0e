import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useConfig } from '@/lib/config-context';
import { useThemeSync } from '@/lib/use-theme';
import { Footer } from './footer';
import { Header } from './header';
import { PageLoading } from './page-loading';

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
 * Shared layout of every page: skip link, sticky header, main landmark, footer. It also keeps
 * the site's theme in step with the session (the user's preference, or the system's).
 */
export function RootLayout() {
  const { isLocal } = useConfig();
  useFocusMainOnNavigation();
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
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
      {isLocal ? (
        <Suspense fallback={null}>
          <DevTools />
        </Suspense>
      ) : null}
    </div>
  );
}
