/**
 * The build's prerender (scripts/prerender.mjs) renders each public page with this module,
 * through the same routes and components as the browser. Configuration values the server
 * only knows at start-up are written as placeholders that it fills in when it loads the pages
 * (api/src/http/site.rs), so the HTML and the browser's first render agree.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/routes';
import type { AppConfig } from './lib/config';
import { resetSessionStore } from './lib/session-store';
import { PageMetaCollector, type PageMeta } from './lib/use-page-meta';

/** Placeholder for each configuration value the server fills in (site.rs `PLACEHOLDERS`). */
export const PLACEHOLDERS = {
  appName: '__TS_APP_NAME__',
  main: '__TS_MAIN_PLATFORM_URL__',
  hire: '__TS_HIRE_PLATFORM_URL__',
  campus: '__TS_CAMPUS_PLATFORM_URL__',
  career: '__TS_CAREER_PLATFORM_URL__',
} as const;

const config: AppConfig = {
  apiBaseUrl: '/api',
  env: 'production',
  appName: PLACEHOLDERS.appName,
  debug: false,
  isLocal: false,
  platformUrls: { main: PLACEHOLDERS.main, hire: PLACEHOLDERS.hire, campus: PLACEHOLDERS.campus, career: PLACEHOLDERS.career },
  signInUrls: {},
  googleClientId: undefined,
  // The server's list is not known at build time: the pages that offer providers add their
  // buttons after hydration (the prerendered HTML has none).
  signInProviders: [],
};

export type RenderedPage = PageMeta & { html: string };

/** The HTML of `url`'s page once every lazy part of it has loaded, with its title and description. */
export async function render(url: string): Promise<RenderedPage> {
  // Nothing is carried from one page to the next: no session, and with it no GraphQL cache.
  resetSessionStore();
  const meta: PageMeta = { title: config.appName, description: '' };
  const page = (
    <StrictMode>
      <PageMetaCollector value={meta}>
        <AppProvider config={config}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </PageMetaCollector>
    </StrictMode>
  );
  // The first pass waits for every lazy page and component to load. Its own output streams
  // large parts behind inline scripts, which the CSP forbids, so the page is then rendered
  // once more in one piece, everything now at hand.
  await (await prerender(page)).prelude.cancel();
  const html = renderToString(page);
  if (html.includes('<!--$!-->')) throw new Error(`${url}: part of the page did not render on the server`);
  return { ...meta, html };
}

/**
 * Every page the build prerenders. `indexed` pages get a canonical link and are the sitemap's
 * (site.rs `PUBLIC_PAGES`); the rest are transient and marked noindex. /verify-otp is not
 * here: without the email its flow hands it, it only sends the visitor on to /register. A `:param` page is
 * rendered once and served for any value of it; `notFound` is the page of every unknown path.
 */
export const PAGES: readonly { path: string; file: string; indexed: boolean }[] = [
  { path: '/', file: 'home.html', indexed: true },
  ...['about', 'contact', 'jobs', 'solutions', 'resources', 'company', 'privacy-policy', 'terms-service', 'cookie-policy'].map(
    (name) => ({ path: `/${name}`, file: `${name}.html`, indexed: true }),
  ),
  // Footer pages the sitemap leaves out (site.rs `PRIVATE_PAGES`): not indexed either.
  ...['accessibility', 'status'].map((name) => ({ path: `/${name}`, file: `${name}.html`, indexed: false })),
  ...['hire', 'campus', 'career'].map((id) => ({ path: `/platforms/${id}`, file: `platform-${id}.html`, indexed: true })),
  { path: '/news', file: 'news.html', indexed: true },
  { path: '/login', file: 'login.html', indexed: true },
  { path: '/register', file: 'register.html', indexed: true },
  { path: '/forgot-password', file: 'forgot-password.html', indexed: false },
  { path: '/reset-password/:token', file: 'reset-password.html', indexed: false },
];

/** Rendered at a path no route matches: the 404 page. */
export const NOT_FOUND = { path: '/__not-found__', file: '404.html' } as const;
