// The prerendered site against the real server: every public page is whole HTML before any
// script runs (checked with JavaScript off), the browser then adopts that HTML without a
// layout shift, a console error or a session check a visitor does not need, and an unknown
// path is a real 404 with the 404 page. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { DESKTOP, launchBrowser, toast, withPage } from './support/browser.mjs';
import { accountScreens, APP, publicRoutes } from './support/pages.mjs';

const preview = process.env.E2E_PREVIEW === '1';
let app;
let browser;

before(async () => {
  if (preview) return;
  app = await startApp();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

/** The pages the build prerenders (the rest are drawn in the browser). */
const prerendered = [
  ...publicRoutes.filter(({ path }) => path !== '/security'),
  ...accountScreens.filter(({ path }) => path !== '/profile'),
];
const indexed = (path) => !['/forgot-password', '/reset-password/some-token', '/accessibility', '/status'].includes(path);

/** Layout shifts of the page so far, as the browser counts them for CLS. */
const layoutShift = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 200);
      }),
  );

describe('prerendered pages (real server)', { skip: preview && 'needs the real server' }, () => {
  test('every public page is there with JavaScript off: heading, header, footer, title, canonical link', async () => {
    const context = await browser.newContext({ baseURL: app.baseURL, viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const { path, h1, title } of prerendered) {
        const response = await page.goto(path);
        assert.equal(response.status(), 200, path);
        await page.getByRole('heading', { level: 1, name: h1 }).waitFor({ timeout: 2000 });
        assert.equal(await page.title(), title ?? `${h1} | ${APP}`, path);
        const header = page.locator('header');
        assert.ok(await header.getByRole('link', { name: 'Sign In' }).isVisible(), `${path}: the visitor's header`);
        assert.ok(await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).isVisible(), `${path}: the footer`);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        assert.ok(description && description.length > 20, `${path}: a description`);
        const canonical = page.locator('link[rel="canonical"]');
        if (indexed(path)) {
          assert.equal(await canonical.getAttribute('href'), `${app.platformUrls.main}${path}`, path);
        } else {
          assert.equal(await canonical.count(), 0, path);
          assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex', path);
        }
      }
      // The footer's platform links carry the server's settings, not the build's placeholders.
      await page.goto('/');
      assert.equal(await page.locator('footer').getByRole('link', { name: 'Organization' }).getAttribute('href'), app.platformUrls.hire);
      assert.ok(!(await page.content()).includes('__TS_'), 'every placeholder is filled');
    } finally {
      await context.close();
    }
  });

  test('the browser adopts the HTML without a shift, an error or a session check, then navigates in place', async () => {
    await withPage(browser, app.baseURL, 'hydration', async (page) => {
      const problems = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
      });
      const verifyCalls = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/auth/verify')) verifyCalls.push(request.url());
      });
      // (/news is left out: its stories arrive after the page is up and take their room then.)
      for (const path of ['/', '/about', '/login', '/register', '/platforms/hire', '/forgot-password']) {
        await page.goto(path, { waitUntil: 'networkidle' });
        // Hydrated: the menu button answers a click.
        await page.getByRole('button', { name: 'Resources' }).click();
        await page.getByRole('button', { name: 'Resources' }).and(page.locator('[aria-expanded="true"]')).waitFor();
        assert.equal(await layoutShift(page), 0, `${path}: no layout shift`);
      }
      assert.deepEqual(problems, [], 'nothing logged to the console');
      assert.deepEqual(verifyCalls, [], 'a visitor with no session cookie is not checked');

      // Links now move inside the page instead of loading another one.
      await page.evaluate(() => {
        window.stillHere = true;
      });
      await page.goto('/about');
      await page.evaluate(() => {
        window.stillHere = true;
      });
      await page.locator('header').getByRole('link', { name: 'Sign In' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign In' }).waitFor();
      assert.equal(await page.evaluate(() => window.stillHere), true, 'no full page load');
      assert.equal(await page.title(), `Sign In | ${APP}`);
    });
  });

  test('a page that arrives slowly is painted whole, never as half a header that then shifts', async () => {
    await withPage(browser, app.baseURL, 'slow page', async (page) => {
      for (const path of ['/about', '/no-such-page']) {
        // A returning visitor on a slow line: the style sheet and scripts are cached, and the
        // page's HTML comes in pieces the browser could paint one by one.
        await page.goto(path);
        const network = await page.context().newCDPSession(page);
        await network.send('Network.enable');
        await network.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 4096, uploadThroughput: -1 });
        await page.goto(path);
        await network.detach();
        assert.equal(await layoutShift(page), 0, `${path}: no layout shift`);
      }
    });
  });

  test('a form filled in and sent before the app has loaded is sent by the app, never as a page request', async () => {
    await withPage(browser, app.baseURL, 'early form', async (page) => {
      // The app's script arrives late, so the person works on the prerendered HTML alone.
      await page.route('**/assets/index-*.js', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const pageRequests = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest()) pageRequests.push(`${request.method()} ${request.url()}`);
      });
      const login = page.waitForResponse('**/api/auth/login');
      await page.goto('/login', { waitUntil: 'commit' });
      await page.getByLabel('Email').fill('nobody.early@example.com');
      await page.locator('input[name="password"]').fill('quietRiver42');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click({ noWaitAfter: true });
      assert.equal(await page.evaluate(() => window.tsAppReady ?? false), false, 'clicked before the app was ready');
      // The app sends what was typed: the server answers for that email and password.
      assert.equal((await login).status(), 401);
      await toast(page, 'Invalid email or password').waitFor();
      assert.equal(await page.getByLabel('Email').inputValue(), 'nobody.early@example.com');
      assert.deepEqual(pageRequests, [`GET ${app.baseURL}/login`], 'no page request carried the form');
    });
  });

  test('an unknown path answers 404 with the 404 page, which works like any other', async () => {
    await withPage(browser, app.baseURL, 'not found', async (page) => {
      const response = await page.goto('/no-such-page');
      assert.equal(response.status(), 404);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      assert.equal(await page.title(), `Page Not Found | ${APP}`);
      await page.getByRole('button', { name: 'Resources' }).click();
      assert.equal(await layoutShift(page), 0, 'no layout shift');
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await page.getByRole('heading', { level: 1, name: 'Next-Gen AI Talent Solutions' }).waitFor();
    });
  });

  test('a signed-in browser gets its account menu on a prerendered page, with no error', async () => {
    const { email, password } = await verifiedAccount(app.baseURL, { name: 'Mira Sen', email: 'mira.prerender@example.com', role: 'campus' });
    await withPage(browser, app.baseURL, 'prerender signed in', async (page) => {
      const problems = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      // Sign in through the page, so the session lives in the HttpOnly cookie.
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.locator('input[name="password"]').fill(password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await page.evaluate(() => localStorage.clear());
      const response = await page.goto('/about');
      assert.match(await response.text(), /<html lang="en" data-signed-in>/);
      await page.locator('header').getByRole('button', { name: 'Account menu for Mira Sen' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('data-signed-in'), null, 'the mark is gone once the session is known');
      assert.deepEqual(problems, []);
    });
  });
});
