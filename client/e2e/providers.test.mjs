// More sign-in providers against the real server, with GitHub played by a stand-in
// (e2e/support/fake-idp.mjs startFakeGitHub: authorize, token exchange, /user, /user/emails).
// A person registers with "Continue with GitHub" in the popup and is signed in, signs in the
// same way on /login, sees GitHub connected on /security and cannot disconnect it, since it is
// the account's only way in. A password account connects GitHub on /security and disconnects
// it again. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { latestSubject } from './support/mailbox.mjs';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';
import { githubEnv, startFakeGitHub } from './support/fake-idp.mjs';

const preview = process.env.E2E_PREVIEW === '1';
const CLIENT = { clientId: 'e2e-github-client', clientSecret: 'e2e-github-secret' };
let app;
let github;
let browser;

before(async () => {
  if (preview) return;
  github = await startFakeGitHub(CLIENT);
  app = await startApp({ env: githubEnv(github, CLIENT) });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await github?.stop();
});

const desktopHeader = (page) => page.locator('header > div').first();
const connectedAccounts = (page) => page.locator('main section').filter({ has: page.getByRole('heading', { level: 2, name: 'Connected accounts' }) });
const githubRow = (page) => connectedAccounts(page).getByTestId('identity').filter({ has: page.getByText('GitHub', { exact: true }) });

async function expectSignedIn(page, name) {
  await desktopHeader(page).getByRole('button', { name: new RegExp(name) }).waitFor({ timeout: 10_000 });
}

/**
 * Clicks `name` and returns the provider popup it opens; the stand-in answers at once, and the
 * callback page posts its ticket to this page and closes itself.
 */
async function throughPopup(page, name) {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name }).click();
  return popupOpened;
}

async function signInWithPassword(page, { email, password }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${app.baseURL}/`);
}

describe('sign-in providers (real server)', { skip: preview && 'needs the real server' }, () => {
  test('registers with GitHub in the popup, signs in with it, and cannot disconnect the only way in', async () => {
    github.nextIdentity = { id: 4242, login: 'octo-reg', name: 'Octo Register', email: 'octo.register@example.com' };
    await withPage(browser, app.baseURL, 'github register', async (page) => {
      await page.goto('/register');
      // Only the configured provider is offered, beside Google's button.
      await page.getByRole('button', { name: 'Continue with GitHub' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Continue with (LinkedIn|Microsoft)$/ }).count(), 0);
      assert.deepEqual(await seriousA11yViolations(page), [], 'register with the provider buttons');
      await page.locator('form').getByText('Institute', { exact: true }).click();
      // The popup's first request: its URL is gone by the time the popup is seen (it redirects at once).
      const started = page.context().waitForEvent('request', (request) => request.url().includes('/api/auth/github/start'));
      await throughPopup(page, 'Continue with GitHub');
      const start = new URL((await started).url());
      assert.equal(start.search, '?intent=register&role=campus');
      // A new account whose email GitHub vouches for is signed in and sent to its role's platform.
      await page.waitForURL(`${app.platformUrls.campus}/`, { timeout: 15_000 });
      await page.goto('/');
      await expectSignedIn(page, 'Octo Register');
    });
    const authorize = github.requests.find((request) => request.path === '/login/oauth/authorize');
    assert.ok(authorize, 'the popup reached the provider');
    assert.equal(authorize.query.client_id, CLIENT.clientId);
    assert.ok(github.requests.some((request) => request.path === '/user/emails'), 'the server read the verified email');

    await withPage(browser, app.baseURL, 'github login and security', async (page) => {
      await page.goto('/login');
      await throughPopup(page, 'Continue with GitHub');
      await page.waitForURL(`${app.baseURL}/`, { timeout: 15_000 });
      await expectSignedIn(page, 'Octo Register');

      await page.goto('/security');
      const row = githubRow(page);
      await row.getByText('octo.register@example.com', { exact: false }).waitFor();
      await row.getByText(/Connected /).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], '/security with Connected accounts');
      await row.getByRole('button', { name: 'Disconnect GitHub' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Disconnect GitHub?' });
      await dialog.getByRole('button', { name: 'Disconnect' }).click();
      await toast(page, 'Add a password or another sign-in method first').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await row.getByRole('button', { name: 'Disconnect GitHub' }).waitFor();
      await row.getByText('octo.register@example.com', { exact: false }).waitFor();
    });
  });

  test('a password account connects GitHub on /security, then disconnects it', async () => {
    const user = await verifiedAccount(app.baseURL, { name: 'Pia Password', email: 'pia.password@example.com' });
    github.nextIdentity = { id: 5151, login: 'pia-gh', name: 'Pia on GitHub', email: 'pia.github@example.com' };
    await withPage(browser, app.baseURL, 'github connect', async (page) => {
      await signInWithPassword(page, user);
      await page.goto('/security');
      const row = githubRow(page);
      await row.getByText('Not connected', { exact: true }).waitFor();
      await throughPopup(page, 'Connect GitHub');
      await toast(page, 'GitHub account connected').waitFor({ timeout: 15_000 });
      await row.getByText('pia.github@example.com', { exact: false }).waitFor();
      // A connected account outlives a password reset: the owner is told by mail.
      assert.equal(
        await latestSubject(app.baseURL, user.email, /GitHub sign-in was added to your [^<]+ account/),
        'GitHub sign-in was added to your Talent Suite account',
      );

      await row.getByRole('button', { name: 'Disconnect GitHub' }).click();
      await page.getByRole('alertdialog', { name: 'Disconnect GitHub?' }).getByRole('button', { name: 'Disconnect' }).click();
      await toast(page, 'GitHub account disconnected').waitFor();
      await row.getByText('Not connected', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Connect GitHub' }).waitFor();
    });
    // Disconnected, the GitHub identity no longer signs in to this account.
    await withPage(browser, app.baseURL, 'github login after disconnect', async (page) => {
      await page.goto('/login');
      await throughPopup(page, 'Continue with GitHub');
      await toast(page, 'No account found for this GitHub email. Please register first.').waitFor({ timeout: 15_000 });
      assert.equal(new URL(page.url()).pathname, '/login');
    });
  });
});
