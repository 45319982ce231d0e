// Single sign-on through Talent Suite as the OpenID Provider: two stand-in platform sites
// (openid-client, e2e/support/platform.mjs) registered with `api oauth-client create`; a person
// signs in to the first through the login page and is back on the platform signed in, then the
// second platform signs the same person in without a password; signing out of a platform ends
// the Talent Suite session and tells the other platform by back-channel logout.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { launchBrowser, seriousA11yViolations, withPage } from './support/browser.mjs';
import { startPlatform } from './support/platform.mjs';

const preview = process.env.E2E_PREVIEW === '1';
let app;
let browser;
let hire;
let campus;

function registerWith(name) {
  return async (baseURL) => {
    const output = app.cli([
      'oauth-client', 'create', '--name', name,
      '--redirect-uri', `${baseURL}/callback`,
      '--post-logout-redirect-uri', `${baseURL}/`,
      '--backchannel-logout-uri', `${baseURL}/backchannel`,
      '--first-party',
    ]);
    const clientId = /client_id: (\S+)/.exec(output)?.[1];
    const clientSecret = /client_secret: (\S+)/.exec(output)?.[1];
    assert.ok(clientId && clientSecret, output);
    return { clientId, clientSecret };
  };
}

before(async () => {
  if (preview) return;
  app = await startApp();
  browser = await launchBrowser();
  hire = await startPlatform({ name: 'Hire', issuer: app.baseURL, register: registerWith('Hire') });
  campus = await startPlatform({ name: 'Campus', issuer: app.baseURL, register: registerWith('Campus') });
});

after(async () => {
  await browser?.close();
  await hire?.stop();
  await campus?.stop();
  await app?.stop();
});

describe('single sign-on (real server)', { skip: preview && 'needs the real server' }, () => {
  test('a platform signs a person in through the provider, then a second one without a password', async () => {
    const user = await verifiedAccount(app.baseURL, { name: 'Sasha Single', email: 'sasha.sso@example.com', role: 'hire' });
    await withPage(browser, app.baseURL, 'sso', async (page) => {
      await page.goto(`${hire.baseURL}/`);
      await page.getByRole('link', { name: 'Sign in with Talent Suite' }).click();
      await page.waitForURL(/\/login\?redirect=/);
      await page.getByRole('heading', { level: 1, name: 'Sign In' }).waitFor();
      await page.getByLabel('Email').fill(user.email);
      await page.locator('input[name="password"]').fill(user.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${hire.baseURL}/`);
      await page.getByText('Signed in as Sasha Single (sasha.sso@example.com), role hire').waitFor();

      // The second platform: straight through the provider, no password asked.
      await page.goto(`${campus.baseURL}/`);
      await page.getByRole('link', { name: 'Sign in with Talent Suite' }).click();
      await page.waitForURL(`${campus.baseURL}/`);
      await page.getByText('Signed in as Sasha Single (sasha.sso@example.com), role hire').waitFor();

      // Signing out of Hire ends the Talent Suite session; Campus hears of it.
      await page.goto(`${hire.baseURL}/`);
      await page.getByRole('link', { name: 'Sign out' }).click();
      await page.waitForURL(`${hire.baseURL}/`);
      await page.getByRole('link', { name: 'Sign in with Talent Suite' }).waitFor();
      // The browser's own cookies: the provider session is over.
      const verify = await page.context().request.get(`${app.baseURL}/api/auth/verify`);
      assert.equal(verify.status(), 401, 'the provider session is over');
      for (let i = 0; i < 50 && campus.loggedOut.length === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
      assert.equal(campus.loggedOut.length, 1, 'Campus got a back-channel logout token');
      // The token's claims (its signature is the platform's to check; here, what it says).
      const claims = JSON.parse(Buffer.from(campus.loggedOut[0].split('.')[1] ?? '', 'base64url').toString('utf8'));
      assert.equal(claims.iss, app.baseURL, 'issued by Talent Suite');
      assert.equal(claims.aud, campus.clientId, 'addressed to Campus');
      assert.ok(Object.hasOwn(claims.events ?? {}, 'http://schemas.openid.net/event/backchannel-logout'), 'a back-channel logout event');
    });
  });

  test('a partner application shows the consent screen once; the person revokes it on /security', async () => {
    const output = app.cli(['oauth-client', 'create', '--name', 'Acme Jobs', '--redirect-uri', 'https://acme.example/callback']);
    const clientId = /client_id: (\S+)/.exec(output)?.[1];
    const user = await verifiedAccount(app.baseURL, { name: 'Pat Partner', email: 'pat.partner@example.com' });
    await withPage(browser, app.baseURL, 'consent', async (page) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(user.email);
      await page.locator('input[name="password"]').fill(user.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${app.baseURL}/`);
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: 'https://acme.example/callback',
        response_type: 'code',
        scope: 'openid email',
        state: 's1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      await page.goto(`/oauth2/authorize?${query}`);
      await page.getByRole('heading', { name: 'Allow Acme Jobs?' }).waitFor();
      await page.getByText('See your email address').waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'consent screen');
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().startsWith('https://acme.example/callback')),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      const back = new URL(request.url());
      assert.ok(back.searchParams.get('code'));
      assert.equal(back.searchParams.get('state'), 's1');

      // The person sees the application on /security and takes its access back.
      // (A second tab: the first is still failing to reach acme.example, which does not exist.)
      const security = await page.context().newPage();
      await security.goto('/security');
      await security.locator('main').getByTestId('application').getByText('Acme Jobs').waitFor();
      assert.deepEqual(await seriousA11yViolations(security), [], 'security with an application');
      await security.getByRole('button', { name: 'Revoke access of Acme Jobs' }).click();
      await security.locator('.Toastify').getByText('Access revoked', { exact: true }).waitFor();
      await security.getByText('No other application can sign you in with your account.', { exact: false }).waitFor();
    });
  });
});
