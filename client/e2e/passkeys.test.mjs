// Passkeys against the real server, with Chromium's virtual authenticator (a platform
// authenticator with resident keys and user verification, driven over CDP): a person adds a
// passkey on /security, renames it, signs out and back in with "Sign in with a passkey", then
// once more from the email field's autofill (conditional mediation), removes it, and a
// sign-in with the passkey the authenticator still holds is refused. axe runs on /security
// with the Passkeys section. WebAuthn needs a host name for its relying party id, so the site
// is served as http://localhost:<port>. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { latestSubject } from './support/mailbox.mjs';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';

const preview = process.env.E2E_PREVIEW === '1';
let app;
let browser;

before(async () => {
  if (preview) return;
  app = await startApp({ host: 'localhost' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

const desktopHeader = (page) => page.locator('header > div').first();
const accountButton = (page, name) => desktopHeader(page).getByRole('button', { name: `Account menu for ${name}` });
const passkeysSection = (page) => page.locator('main section').filter({ has: page.getByRole('heading', { level: 2, name: 'Passkeys' }) });
const verifyStatus = (page) => page.evaluate(async () => (await fetch('/api/auth/verify', { credentials: 'include' })).status);

/**
 * A platform authenticator for this page, as a phone or laptop has: it keeps discoverable
 * credentials, verifies the person, and answers every prompt at once.
 */
async function addVirtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

/**
 * The virtual authenticator answers a conditional (autofill) request at once, as if the person
 * had picked its passkey, so /login would sign in the moment it opens. Autofill is offered only
 * while the tab's `e2e-autofill` flag is on, so the button can be tested on its own.
 */
const holdAutofill = (page) =>
  page.addInitScript(() => {
    const statics = window.PublicKeyCredential;
    const available = statics?.isConditionalMediationAvailable;
    if (!available) return;
    statics.isConditionalMediationAvailable = () => (sessionStorage.getItem('e2e-autofill') === 'on' ? available.call(statics) : Promise.resolve(false));
  });
const setAutofill = (page, on) => page.evaluate((value) => (value ? sessionStorage.setItem('e2e-autofill', 'on') : sessionStorage.removeItem('e2e-autofill')), on);

async function signInWithPassword(page, { email, password }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${app.baseURL}/`);
}

async function signOut(page, name) {
  await accountButton(page, name).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
}

describe('passkeys (real server)', { skip: preview && 'needs the real server' }, () => {
  test('add, rename, sign in with the button and from autofill, remove; a removed passkey no longer signs in', async () => {
    const name = 'Pia Passkey';
    const account = await verifiedAccount(app.baseURL, { name, email: 'pia.passkey@example.com' });
    assert.equal(new URL(app.baseURL).hostname, 'localhost');

    await withPage(browser, app.baseURL, 'passkeys', async (page) => {
      await holdAutofill(page);
      const authenticator = await addVirtualAuthenticator(page);
      await signInWithPassword(page, account);

      // Add: the browser makes a discoverable credential for this site; the server keeps it.
      await page.goto('/security');
      const section = passkeysSection(page);
      await section.getByText('You have no passkeys yet.').waitFor();
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      await toast(page, 'Passkey added').waitFor();
      const entry = section.getByTestId('passkey');
      await entry.waitFor();
      assert.equal(await entry.count(), 1);
      const defaultName = (await entry.locator('p').first().innerText()).trim();
      assert.match(defaultName, /^\S.* on \S/, 'named after the browser and system');
      assert.match(await entry.innerText(), /Never used/);
      const stored = await authenticator.credentials();
      assert.equal(stored.length, 1);
      assert.equal(stored[0].isResidentCredential, true, 'a discoverable credential');
      assert.equal(stored[0].rpId, 'localhost');
      // A passkey outlives a password reset: the owner is told by mail.
      assert.equal(
        await latestSubject(app.baseURL, account.email, /A passkey was added to your [^<]+ account/),
        'A passkey was added to your Talent Suite account',
      );
      assert.deepEqual(await seriousA11yViolations(page), [], '/security with a passkey');

      // Rename in place.
      await section.getByRole('button', { name: `Rename ${defaultName}` }).click();
      const field = section.getByLabel('Passkey name');
      assert.equal(await field.inputValue(), defaultName);
      assert.deepEqual(await seriousA11yViolations(page), [], 'the rename form');
      await field.fill('Work laptop');
      await section.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Passkey renamed').waitFor();
      await section.getByText('Work laptop', { exact: true }).waitFor();
      assert.equal(await field.count(), 0);

      // The button: a passkey is both factors, so it signs in like a password, in one step.
      await signOut(page, name);
      assert.equal(await verifyStatus(page), 401);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await accountButton(page, name).waitFor();
      assert.equal(await verifyStatus(page), 200);

      // Autofill: with conditional mediation, opening /login is enough (the virtual
      // authenticator picks its passkey at once, as a person would from the email field).
      await signOut(page, name);
      await setAutofill(page, true);
      // 'commit': the page leaves for the home page on its own, before anything could be clicked.
      // On a slow host it may leave before Playwright has seen /login commit, and the goto then
      // reports ERR_ABORTED: that departure is the sign-in awaited below, not a failure.
      await page.goto('/login', { waitUntil: 'commit' }).catch((error) => {
        if (!String(error).includes('ERR_ABORTED')) throw error;
      });
      await page.waitForURL(`${app.baseURL}/`);
      await accountButton(page, name).waitFor();
      await setAutofill(page, false);

      // The sign-ins show as the passkey's last use; then remove it, after the confirmation.
      await page.goto('/security');
      await section.getByText(/last used/).waitFor();
      await section.getByRole('button', { name: 'Remove Work laptop' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Remove Work laptop?' });
      await dialog.waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'the remove confirmation');
      await dialog.getByRole('button', { name: 'Remove passkey' }).click();
      await toast(page, 'Passkey removed').waitFor();
      await section.getByText('You have no passkeys yet.').waitFor();

      // The authenticator still holds the credential, but the server no longer knows it.
      await signOut(page, name);
      assert.equal((await authenticator.credentials()).length, 1);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await toast(page, 'Passkey not recognised').waitFor();
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await verifyStatus(page), 401);
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
    });
  });
});
