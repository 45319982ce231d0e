// Every route renders inside the shared layout with one h1, its own title and description,
// and no serious or critical axe violation in either theme (a visitor's system setting picks
// it: all of axe's rules in the light theme, its colour rules in the dark one, `axeRulesFor`,
// on the same page once the setting changes); unknown routes get the 404 page. The account screens have their own suites
// (accounts.test.mjs, and theme.test.mjs for both themes).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolationsInEitherTheme, withPage } from './support/browser.mjs';
import { APP, publicRoutes as routes } from './support/pages.mjs';

let app;
let browser;

before(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

async function expectPageBasics(page, { h1, title }) {
  const heading = page.locator('h1');
  await heading.first().waitFor();
  assert.equal(await heading.count(), 1, 'exactly one h1');
  assert.equal((await heading.innerText()).trim(), h1);
  await page.waitForFunction((expected) => document.title === expected, title);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  assert.ok(description && description.length > 20, 'a meta description');
  for (const selector of ['header', 'main#main', 'footer', 'nav[aria-label="Main"]']) {
    assert.equal(await page.locator(selector).count(), 1, `one ${selector}`);
  }
}

describe('routes', () => {
  for (const route of routes) {
    test(`${route.path} renders "${route.h1}" with its title and no serious a11y violation in either theme`, async () => {
      await withPage(browser, app.baseURL, `route ${route.path}`, async (page) => {
        const response = await page.goto(route.path);
        assert.equal(response?.status(), 200);
        await expectPageBasics(page, { h1: route.h1, title: route.title ?? `${route.h1} | ${APP}` });
        if (route.signedOutText) {
          await page.getByText(route.signedOutText).waitFor();
        } else if (route.path !== '/') {
          assert.equal(await page.getByRole('progressbar', { name: 'Under Construction' }).getAttribute('aria-valuenow'), '60');
          assert.equal(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href'), '/');
        }
        // Let the session check settle so the header is in its final state for axe.
        await page.getByRole('link', { name: 'Sign In' }).first().waitFor({ state: 'attached' });
        assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), []);
      });
    });
  }

  test('an unknown route answers HTTP 404 and shows the 404 page inside the layout, in either theme', async () => {
    await withPage(browser, app.baseURL, 'route 404', async (page) => {
      const response = await page.goto('/no-such-page/at-all');
      assert.equal(response?.status(), 404);
      await expectPageBasics(page, { h1: 'Page not found', title: `Page Not Found | ${APP}` });
      assert.equal(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href'), '/');
      assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), []);
    });
  });

  test('a page whose runtime configuration lacks a required value shows only the missing name', async () => {
    await withPage(browser, app.baseURL, 'missing config', async (page) => {
      await page.route('**/about', async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(/"VITE_APP_NAME":"[^"]*",?/, '');
        await route.fulfill({ response, body: html });
      });
      // The app never starts here (that is the point), so it is not waited for.
      await page.goto('/about', { waitUntil: 'commit' });
      // The prerendered page is on screen first; the script then replaces it with the message.
      await page.waitForFunction(() => document.getElementById('root')?.textContent?.startsWith('Missing required'));
      assert.equal(await page.locator('#root').innerText(), 'Missing required environment variable: VITE_APP_NAME');
      assert.equal(await page.locator('#root *').count(), 0);
    });
  });

  test('the short platform links /hire, /campus and /career lead to the platform pages', async () => {
    await withPage(browser, app.baseURL, 'platform shortcuts', async (page) => {
      for (const id of ['hire', 'campus', 'career']) {
        await page.goto(`/${id}`);
        await page.waitForURL(`**/platforms/${id}`);
      }
    });
  });

  test('the home page has every section in order with the texts of the spec', async () => {
    await withPage(browser, app.baseURL, 'home sections', async (page) => {
      await page.goto('/');
      const h2s = (await page.locator('main h2').allInnerTexts()).map((text) => text.trim());
      const expected = ['About Talent Suite', 'Integrated AI Platforms', 'Strategic Advantages', 'Optimized Workflows', 'Trusted by Innovators', 'Flexible Pricing', 'Subscribe to our newsletter'];
      assert.deepEqual(h2s, expected);
      const main = page.locator('main');
      for (const text of ['50K+', 'Companies Hiring', '200+', 'Universities Partnered', '1M+', 'Careers Launched', 'Custom', '$2999/mo', '$99/mo']) {
        assert.ok((await main.innerText()).includes(text), `home shows ${text}`);
      }
      for (const [name, href] of [['Optimize Hiring', '/hire'], ['Boost Placements', '/campus'], ['Get Job Ready', '/career'], ['Learn More', '/about']]) {
        assert.equal(await main.getByRole('link', { name }).getAttribute('href'), href);
      }
      assert.equal(await main.locator('form[novalidate] input[type="email"]').count(), 1);
    });
  });

  test('the footer has every link, external platform sites and the current year', async () => {
    await withPage(browser, app.baseURL, 'footer', async (page) => {
      await page.goto('/');
      const footer = page.locator('footer');
      for (const [name, href] of [
        ['Student', app.platformUrls.career],
        ['Institute', app.platformUrls.campus],
        ['Organization', app.platformUrls.hire],
      ]) {
        const link = footer.getByRole('link', { name: new RegExp(`^${name}`) });
        assert.equal(await link.getAttribute('href'), href);
        assert.equal(await link.getAttribute('target'), '_blank');
      }
      for (const href of ['/about', '/news', '/jobs', '/privacy-policy', '/terms-service', '/cookie-policy', '/accessibility', '/security', '/status']) {
        assert.equal(await footer.locator(`a[href="${href}"]`).count(), 1, `footer links ${href}`);
      }
      for (const name of ['Twitter', 'LinkedIn', 'GitHub', 'YouTube', 'Instagram']) {
        assert.equal(await footer.getByRole('link', { name: new RegExp(name) }).getAttribute('target'), '_blank');
      }
      assert.ok((await footer.innerText()).includes(`© ${new Date().getFullYear()}`));
    });
  });

  test('a short page on a tall screen keeps its own background down to the footer', async () => {
    await withPage(
      browser,
      app.baseURL,
      'tall screen',
      async (page) => {
        for (const [path, text] of [
          ['/security', "Please sign in to manage your account's security."],
          ['/profile', 'Please sign in to view your profile.'],
          ['/forgot-password', 'Forgot Password'],
        ]) {
          await page.goto(path);
          await page.getByText(text).first().waitFor();
          // The page's panel ends where the footer begins: no band of another colour between.
          const gap = await page.evaluate(() => {
            const panel = document.querySelector('main#main > :last-child');
            const footer = document.querySelector('footer');
            return footer.getBoundingClientRect().top - panel.getBoundingClientRect().bottom;
          });
          assert.equal(gap, 0, `${path}: ${gap}px between the page and the footer`);
        }
      },
      { viewport: { width: 1280, height: 1600 } },
    );
  });
});
