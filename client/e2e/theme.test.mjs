// The theme preference (issue 11) against the real server: a visitor's page follows the system
// setting, from the first paint (before the app's scripts run) and live; a signed-in user's
// choice in the profile switches the whole site at once, survives a reload without a flash
// of the other theme, follows the account to a fresh browser, and signing out returns to the
// system setting. And axe finds no serious or critical violation on the account screens and
// the signed-in pages in either theme (all its rules in the light theme, those of colour in the
// dark one: `axeRulesFor`; routes.test.mjs covers the public pages in both).
// Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postApi, saveThemePreference, verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { axeRulesFor, launchBrowser, PHONE, screenshot, seriousA11yViolations, seriousA11yViolationsInEitherTheme, withPage } from './support/browser.mjs';
import { accountScreens } from './support/pages.mjs';
import { expectLook } from './support/theme.mjs';

const preview = process.env.E2E_PREVIEW === '1';
const THEMES = ['light', 'dark'];
const other = (theme) => (theme === 'light' ? 'dark' : 'light');
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

const desktopHeader = (page) => page.locator('header > div').first();
const accountButton = (page, name) => desktopHeader(page).getByRole('button', { name: `Account menu for ${name}` });
const signInLink = (page) => desktopHeader(page).getByRole('link', { name: 'Sign In' });
const themeAttribute = (page) => page.locator('html').getAttribute('data-theme');
const rememberedTheme = (page) => page.evaluate(() => localStorage.getItem('theme'));

/** Signs the page's context in with `token`, once: a later logout is not undone by a reload. */
const seedToken = (page, token) =>
  page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('token', value);
      sessionStorage.setItem('seeded', '1');
    }
  }, token);

/**
 * Loads a page (`navigate`: a path, or a function that leads to one) with the app's scripts
 * held back, so what shows is what the served HTML, the stylesheet and /theme-init.js paint
 * before any React code runs: the first paint.
 */
async function firstPaintOf(page, navigate) {
  // Only the next page's scripts: the current page may still load code on demand (the
  // sign-in's toast) until it is replaced.
  let replaced = false;
  const onNavigated = (frame) => {
    if (frame === page.mainFrame()) replaced = true;
  };
  page.on('framenavigated', onNavigated);
  const holdScripts = (route) => (replaced ? route.abort() : route.continue());
  await page.route('**/assets/*.js', holdScripts);
  try {
    if (typeof navigate === 'string') {
      await page.goto(navigate, { waitUntil: 'commit' });
      await page.waitForLoadState('load');
    } else {
      await navigate(page);
    }
    assert.equal(await page.evaluate(() => window.tsAppReady === true), false, 'the app has not run');
  } finally {
    await page.unroute('**/assets/*.js', holdScripts);
    page.off('framenavigated', onNavigated);
  }
}

describe('theme (real server)', { skip: preview && 'needs the real server' }, () => {
  for (const system of THEMES) {
    test(`a visitor on a ${system} system gets ${system} from the first paint, and follows a change of the setting live`, async () => {
      await withPage(
        browser,
        app.baseURL,
        `visitor ${system}`,
        async (page) => {
          await firstPaintOf(page, '/about');
          await expectLook(page, system, 'the first paint');

          await page.goto('/about');
          await signInLink(page).waitFor();
          await expectLook(page, system, 'once the app runs');
          assert.equal(await rememberedTheme(page), null, 'nothing is remembered for a visitor');

          await page.emulateMedia({ colorScheme: other(system) });
          await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, other(system));
          await expectLook(page, other(system), 'after the system setting changed');
        },
        { colorScheme: system },
      );
    });
  }

  test('the theme chosen in the profile applies to the whole site at once, persists for the user, and sign-out returns to the system setting', async () => {
    // The system says dark throughout, so a light page can only come from the user's choice.
    const { token } = await verifiedAccount(app.baseURL, { name: 'Tara Theme', email: 'tara.theme@example.com' });
    await withPage(
      browser,
      app.baseURL,
      'profile theme switch',
      async (page) => {
        await seedToken(page, token);
        await page.goto('/profile');
        const main = page.locator('main');
        await main.getByRole('button', { name: 'Edit profile' }).waitFor();
        await expectLook(page, 'dark', "SPEC.md's default preference");
        assert.equal(await rememberedTheme(page), 'dark');

        await main.getByRole('button', { name: 'Edit profile' }).click();
        await main.getByLabel('Light').check();
        await main.getByRole('button', { name: 'Save changes' }).click();
        await page.locator('.Toastify').getByText('Profile updated', { exact: true }).waitFor();
        await expectLook(page, 'light', 'right after saving, without a reload');
        assert.equal(await page.locator('.Toastify__toast-theme--light').count() > 0, true, 'the toast follows too');
        await main.getByText('Light', { exact: true }).waitFor();
        await screenshot(page, 'theme-profile-light');

        // Elsewhere on the site (a client-side navigation), the header, the page and the menus.
        await desktopHeader(page).getByRole('link', { name: 'Talent Suite' }).click();
        await page.getByRole('heading', { level: 1, name: 'Next-Gen AI Talent Solutions' }).waitFor();
        await expectLook(page, 'light', 'the home page');
        await accountButton(page, 'Tara Theme').click();
        assert.deepEqual(await seriousA11yViolations(page), [], 'home with the account menu open, light');

        // A reload paints light from the start: the choice is remembered on this browser.
        await firstPaintOf(page, (p) => p.reload());
        await expectLook(page, 'light', 'the first paint after a reload');
        await page.reload();
        await accountButton(page, 'Tara Theme').waitFor();
        await expectLook(page, 'light', 'after the reload');
      },
      { colorScheme: 'dark' },
    );

    // A fresh browser has nothing remembered: the account's saved preference decides.
    await withPage(
      browser,
      app.baseURL,
      'theme on a new browser',
      async (page) => {
        await seedToken(page, token);
        await page.goto('/news');
        await accountButton(page, 'Tara Theme').waitFor();
        await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
        await expectLook(page, 'light', 'on a browser that never saw the choice');
        assert.equal(await rememberedTheme(page), 'light');

        await accountButton(page, 'Tara Theme').click();
        await page.getByRole('button', { name: 'Logout' }).click();
        await page.waitForURL('**/login');
        await signInLink(page).waitFor();
        await expectLook(page, 'dark', 'signed out: the system setting');
        assert.equal(await rememberedTheme(page), null, 'nothing remembered after sign-out');
        await page.reload();
        await signInLink(page).waitFor();
        await expectLook(page, 'dark', 'signed out, after a reload');
      },
      { colorScheme: 'dark' },
    );
  });

  test('a signed-in page that was prerendered keeps the remembered theme while the session is checked', async () => {
    // The HTML was built for a visitor; adopting it must not show this user the system's dark,
    // nor forget the choice, in the time the session check takes (held back here to a second).
    const user = await verifiedAccount(app.baseURL, { name: 'Pia Prerender', email: 'pia.prerender@example.com' });
    await saveThemePreference(app.baseURL, user.token, 'light');
    await withPage(
      browser,
      app.baseURL,
      'prerendered signed-in theme',
      async (page) => {
        await seedToken(page, user.token);
        await page.goto('/profile');
        await accountButton(page, 'Pia Prerender').waitFor();
        await expectLook(page, 'light', 'the profile');

        await page.addInitScript(() => {
          window.themesShown = [];
          new MutationObserver(() => {
            const theme = document.documentElement?.dataset.theme;
            if (theme && window.themesShown.at(-1) !== theme) window.themesShown.push(theme);
          }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-theme'] });
        });
        await page.route('**/api/auth/verify', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          await route.continue();
        });
        await page.goto('/about');
        await accountButton(page, 'Pia Prerender').waitFor();
        assert.deepEqual(await page.evaluate(() => window.themesShown), ['light'], 'the only theme shown');
        assert.equal(await rememberedTheme(page), 'light');
      },
      { colorScheme: 'dark' },
    );
  });

  test('signing in with a saved theme opens the next page in it', async () => {
    const user = await verifiedAccount(app.baseURL, { name: 'Lena Light', email: 'lena.light@example.com' });
    await saveThemePreference(app.baseURL, user.token, 'light');
    await withPage(
      browser,
      app.baseURL,
      'sign in with a theme',
      async (page) => {
        await page.goto('/login');
        await expectLook(page, 'dark', 'a visitor on a dark system');
        await page.getByLabel('Email').fill(user.email);
        await page.locator('input[name="password"]').fill(user.password);
        // Login ends with a full-page navigation: hold that page's scripts to see its first paint.
        await firstPaintOf(page, async (p) => {
          await p.getByRole('button', { name: 'Sign In', exact: true }).click();
          await p.waitForURL(`${app.baseURL}/`);
        });
        await expectLook(page, 'light', 'the first paint after sign-in');
        assert.equal(await rememberedTheme(page), 'light');
      },
      { colorScheme: 'dark' },
    );
  });

  for (const theme of THEMES) {
    test(`the signed-in pages (profile, /security, /news) have no serious a11y violation in the ${theme} theme`, async () => {
      const user = await verifiedAccount(app.baseURL, { name: `Axe ${theme}`, email: `axe.${theme}@example.com` });
      await saveThemePreference(app.baseURL, user.token, theme);
      const adminEmail = `ada.${theme}@example.com`;
      app.cli(['create-admin', '--email', adminEmail, '--name', 'Ada Admin'], { ADMIN_PASSWORD: 'adminPass42' });
      const adminLogin = await postApi(app.baseURL, '/auth/login', { email: adminEmail, password: 'adminPass42' });
      assert.equal(adminLogin.status, 200, JSON.stringify(adminLogin.body));
      const adminToken = adminLogin.body.data.token;
      await saveThemePreference(app.baseURL, adminToken, theme);
      for (const [title, published] of [[`Placements open (${theme})`, true], [`Draft note (${theme})`, false]]) {
        const created = await fetch(`${app.baseURL}/api/news`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ title, summary: 'The autumn season starts on Monday.', body: 'First paragraph.\n\nSecond paragraph.', published }),
        });
        assert.equal(created.status, 201, await created.text());
      }

      // The system says the other theme: what shows is the account's preference.
      await withPage(
        browser,
        app.baseURL,
        `signed-in axe ${theme}`,
        async (page) => {
          await seedToken(page, user.token);
          const main = page.locator('main');
          const check = async (label) => {
            assert.equal(await themeAttribute(page), theme, label);
            assert.deepEqual(await seriousA11yViolations(page, axeRulesFor(theme)), [], `${label} (${theme})`);
          };

          await page.goto('/profile');
          await main.getByRole('button', { name: 'Edit profile' }).waitFor();
          await check('profile');
          await main.getByRole('button', { name: 'Edit profile' }).click();
          await main.getByLabel('Website').fill('not a url');
          await main.getByRole('button', { name: 'Save changes' }).click();
          await main.getByText('Website must be a valid http(s) URL').waitFor();
          await check('profile edit with an error');
          await main.getByRole('button', { name: 'Cancel' }).click();
          await main.getByRole('button', { name: 'Delete account' }).click();
          await page.getByRole('alertdialog', { name: 'Delete your account?' }).waitFor();
          await check('profile delete dialog');
          await page.keyboard.press('Escape');

          await page.goto('/security');
          await main.getByRole('heading', { name: 'Change password' }).waitFor();
          await main.getByTestId('session').first().waitFor();
          await main.getByText('Disabled', { exact: true }).waitFor();
          await check('security');
          await main.getByRole('button', { name: 'Change password' }).click();
          await main.getByText('Password is required', { exact: true }).waitFor();
          await check('security with errors shown');
          await screenshot(page, `theme-security-${theme}`);

          await page.goto('/news');
          await main.getByRole('link', { name: `Placements open (${theme})` }).waitFor();
          await check('news');
          await main.getByRole('link', { name: `Placements open (${theme})` }).click();
          await main.getByText('Second paragraph.').waitFor();
          await check('news item');
        },
        { colorScheme: other(theme) },
      );

      await withPage(
        browser,
        app.baseURL,
        `admin news axe ${theme}`,
        async (page) => {
          await seedToken(page, adminToken);
          await page.goto('/news');
          const main = page.locator('main');
          await main.getByRole('button', { name: 'Save post' }).waitFor();
          await main.getByText('Draft', { exact: true }).first().waitFor();
          assert.equal(await themeAttribute(page), theme);
          assert.deepEqual(await seriousA11yViolations(page, axeRulesFor(theme)), [], `news as admin (${theme})`);
          await screenshot(page, `theme-news-admin-${theme}`);
        },
        { colorScheme: other(theme) },
      );
    });
  }

  // A visitor's theme follows the system setting live, so each screen is scanned in both
  // themes from one page load (`seriousA11yViolationsInEitherTheme`).
  test('the account screens and the phone menu have no serious a11y violation in either theme', async () => {
    await withPage(browser, app.baseURL, 'account screens axe', async (page) => {
      for (const { path, h1 } of accountScreens) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
        await signInLink(page).waitFor();
        assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], path);
      }

      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], 'login with errors');

      await page.goto('/register');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('Full Name is required', { exact: true }).waitFor();
      assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], 'register with errors');
      await screenshot(page, 'theme-register-light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await screenshot(page, 'theme-register-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // An unverified account's sign-in leads to the OTP screen (it needs the navigation's state).
      const email = 'otp.themes@example.com';
      const registered = await postApi(app.baseURL, '/auth/register', {
        name: 'Omar Otp',
        email,
        countryCode: '+91',
        phone: '+919876543210',
        password: 'quietRiver42',
        role: 'career',
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.locator('input[name="password"]').fill('quietRiver42');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL('**/verify-otp');
      await page.getByRole('heading', { level: 1, name: 'Verify Your Email' }).waitFor();
      assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], 'verify OTP');

      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: /Send/ }).click();
      await page.getByText('Reset Link Sent!').waitFor();
      assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], 'reset link sent');
    });

    await withPage(
      browser,
      app.baseURL,
      'phone menu axe',
      async (page) => {
        await page.goto('/');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Get Started', exact: true }).waitFor();
        assert.deepEqual(await seriousA11yViolationsInEitherTheme(page), [], 'phone menu');
      },
      { viewport: PHONE },
    );
  });
});
