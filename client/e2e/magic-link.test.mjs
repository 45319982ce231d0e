// The emailed sign-in link against the real server: asked for on /login with only the email,
// read from the dev mailbox, opened (the page alone signs no one in), then Continue.
// Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';
import { latestSignInLink } from './support/mailbox.mjs';

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

describe('sign-in link (real server)', { skip: preview && 'needs the real server' }, () => {
  test('a person asks for a link on /login, opens it and signs in only with Continue', async () => {
    const account = await verifiedAccount(app.baseURL, { name: 'Lina Link', email: 'lina.link@example.com' });
    await withPage(browser, app.baseURL, 'sign-in link', async (page) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      await page.getByLabel('Email').fill(account.email);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await toast(page, 'If an account exists for this email, a sign-in link has been sent.').waitFor();

      const link = await latestSignInLink(app.baseURL, account.email);
      assert.match(link, new RegExp(`^${app.baseURL}/magic-link/[^/]+$`));
      const response = await page.goto(link);
      assert.equal(response?.status(), 200);
      await page.getByRole('heading', { level: 1, name: 'Sign in with your link' }).waitFor();
      // It names the account the link opens before anything is pressed, read with Continue.
      const form = page.getByRole('form', { name: 'Sign in with your link' });
      await form.getByRole('button', { name: 'Continue' }).waitFor();
      assert.equal((await form.getByRole('status').textContent())?.trim(), `Signing in as ${account.email}`);
      const describedBy = await form.getByRole('button', { name: 'Continue' }).getAttribute('aria-describedby');
      assert.equal(await form.getByRole('status').getAttribute('id'), describedBy);
      assert.deepEqual(await seriousA11yViolations(page), []);
      // Opening the page signed no one in.
      const before = await page.evaluate(async () => (await fetch('/api/auth/verify', { credentials: 'include' })).status);
      assert.equal(before, 401);

      await page.getByRole('button', { name: 'Continue' }).click();
      // Like a password sign-in: a full-page navigation to the target, signed in.
      await page.waitForURL(`${app.baseURL}/`);
      await page.locator('header').getByRole('button', { name: 'Account menu for Lina Link' }).first().waitFor();
      const after = await page.evaluate(async () => (await fetch('/api/auth/verify', { credentials: 'include' })).status);
      assert.equal(after, 200);

      // The link works once: opened again, the page says so at once, with no Continue.
      await page.goto(link);
      await page.getByRole('alert').getByText('Sign-in link is invalid', { exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0);
    });
  });
});
