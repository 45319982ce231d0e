// The header's session states against the real server: a visitor's Sign In without a check,
// Loading while /api/auth/verify is in flight, the signed-in avatar menu for a real account (registered and verified through the
// REST API and the dev mailbox), and logout. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postApi, verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';

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

/** Registers and verifies an account the way the site will, and returns its token. */
const signedUpUser = async (account) => (await verifiedAccount(app.baseURL, account)).token;

const desktopHeader = (page) => page.locator('header > div').first();

describe('header session states (real server)', { skip: preview && 'needs the real server' }, () => {
  test('a visitor sees Sign In at once: with no cookie and no token there is nothing to check', async () => {
    await withPage(browser, app.baseURL, 'session visitor', async (page) => {
      const checks = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/auth/verify')) checks.push(request.url());
      });
      await page.goto('/', { waitUntil: 'networkidle' });
      await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
      assert.equal(await desktopHeader(page).getByRole('status').count(), 0);
      assert.deepEqual(checks, []);
    });
  });

  test('shows Loading while the session check is in flight, then Sign In for a token the server refuses', async () => {
    await withPage(browser, app.baseURL, 'session loading', async (page) => {
      await page.addInitScript(() => localStorage.setItem('token', 'a-token-the-server-never-issued'));
      let release;
      const held = new Promise((resolve) => {
        release = resolve;
      });
      await page.route('**/api/auth/verify', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/');
      const status = desktopHeader(page).getByRole('status');
      await status.waitFor();
      assert.equal((await status.innerText()).trim(), 'Loading');
      release();
      await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
    });
  });

  test('signed in: avatar menu with name, email, dashboard by role, profile; logout goes to /login', async () => {
    const token = await signedUpUser({ name: 'Asha Rao', email: 'asha.e2e@example.com', role: 'hire' });
    await withPage(browser, app.baseURL, 'session signed in', async (page) => {
      await page.addInitScript((value) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('token', value);
          sessionStorage.setItem('seeded', '1');
        }
      }, token);
      await page.goto('/');
      const trigger = desktopHeader(page).getByRole('button', { name: 'Account menu for Asha Rao' });
      await trigger.waitFor();
      assert.match(await trigger.innerText(), /A\s*Asha Rao/);
      await trigger.click();
      const panel = page.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
      assert.ok(await panel.getByText('asha.e2e@example.com').isVisible());
      const dashboard = panel.getByRole('link', { name: /Dashboard/ });
      assert.equal(await dashboard.getAttribute('href'), app.platformUrls.hire);
      assert.equal(await dashboard.getAttribute('target'), '_blank');
      assert.equal(await panel.getByRole('link', { name: 'Profile' }).getAttribute('href'), '/profile');
      assert.deepEqual(await seriousA11yViolations(page), []);

      await panel.getByRole('button', { name: 'Logout' }).click();
      await toast(page, 'Logged out successfully').waitFor();
      assert.equal(await page.locator('.Toastify__toast-container--top-right').count(), 1, 'toasts sit top-right');
      await page.waitForURL('**/login');
      await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);

      // The server revoked the session: the old token no longer verifies.
      const verify = await fetch(`${app.baseURL}/api/auth/verify`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(verify.status, 401);
    });
  });
});
