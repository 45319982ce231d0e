// The admin console against the real server (issue 24). An admin made with the server's CLI
// finds a member who is signed in in a browser of their own, suspends them with a reason (the
// member's open session is refused at once and signing in says why), restores them, reads
// their audit trail and exports it as CSV, sets an organization's seat limit, registers an
// application whose secret is shown once, and opens the news section. A member and a visitor
// get the 404 page at /admin. axe runs on every console screen, and on its dialogs, at desktop
// width and at 360 px. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { DESKTOP, launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';

const preview = process.env.E2E_PREVIEW === '1';
/** The narrowest phone the site is checked at. */
const NARROW = { width: 360, height: 780 };
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ADMIN = { name: 'Ada Admin', email: 'ada.admin@example.com', password: 'adminPass42' };
let app;
let browser;

before(async () => {
  if (preview) return;
  app = await startApp();
  browser = await launchBrowser();
  app.cli(['create-admin', '--email', ADMIN.email, '--name', ADMIN.name], { ADMIN_PASSWORD: ADMIN.password });
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

const desktopHeader = (page) => page.locator('header > div').first();

async function signInThroughUi(page, { email, password }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** No serious or critical axe violation at desktop width and at 360 px; back to desktop after. */
async function expectAccessible(page, what) {
  for (const viewport of [DESKTOP, NARROW]) {
    await page.setViewportSize(viewport);
    assert.deepEqual(await seriousA11yViolations(page), [], `${what} at ${viewport.width} px`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Opens a console section by its tab, as a person would. */
async function openSection(page, name, heading = name) {
  await page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name, exact: true }).click();
  await page.locator('main').getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

async function expectNotFound(page, path) {
  await page.goto(path);
  await page.locator('main').getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Admin console' }).count(), 0, `${path} shows no console`);
}

describe('admin console (real server)', { skip: preview && 'needs the real server' }, () => {
  test('a visitor and a signed-in member get the 404 page at /admin, and no Admin link', async () => {
    const member = await verifiedAccount(app.baseURL, { name: 'Nia Nobody', email: 'nia.nobody@example.com' });
    await withPage(browser, app.baseURL, 'admin visitor', async (page) => {
      await expectNotFound(page, '/admin');
      await expectNotFound(page, '/admin/users');
    });
    await withPage(browser, app.baseURL, 'admin as member', async (page) => {
      await signInThroughUi(page, member);
      await page.waitForURL(`${app.baseURL}/`);
      const trigger = desktopHeader(page).getByRole('button', { name: 'Account menu for Nia Nobody' });
      // Opening the menu reads the person's organizations: a Career account in none is offered
      // no Organizations item (API.md: "A person in no organization sees none of this").
      const organizations = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/orgs');
      await trigger.click();
      const panel = page.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
      await panel.getByRole('link', { name: 'Profile' }).waitFor();
      assert.equal((await organizations).status(), 200);
      assert.equal(await panel.getByRole('link', { name: 'Organizations' }).count(), 0, 'no Organizations link for a person in none');
      assert.equal(await panel.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin link for a member');
      for (const path of ['/admin', '/admin/users', '/admin/applications']) await expectNotFound(page, path);
      await expectAccessible(page, '/admin as a member');
    });
  });

  test('an admin suspends a signed-in member (their session is refused), restores them, and works every section', async () => {
    const member = await verifiedAccount(app.baseURL, { name: 'Mina Member', email: 'mina.member@example.com' });
    const owner = await verifiedAccount(app.baseURL, { name: 'Omar Owner', email: 'omar.owner@example.com', role: 'hire' });
    const created = await fetch(`${app.baseURL}/api/orgs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ name: 'Orbit Hiring' }),
    });
    assert.equal(created.status, 201, await created.text());

    await withPage(browser, app.baseURL, 'admin member session', async (memberPage) => {
      // The member is signed in in a browser of their own.
      await signInThroughUi(memberPage, member);
      await memberPage.waitForURL(`${app.baseURL}/`);
      await desktopHeader(memberPage).getByRole('button', { name: 'Account menu for Mina Member' }).waitFor();

      await withPage(browser, app.baseURL, 'admin console', async (page) => {
        const main = page.locator('main');
        await signInThroughUi(page, ADMIN);
        await page.waitForURL(`${app.baseURL}/`);

        // The account menu leads to the console, which opens on Users.
        const trigger = desktopHeader(page).getByRole('button', { name: 'Account menu for Ada Admin' });
        await trigger.click();
        const panel = page.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
        await panel.getByRole('link', { name: 'Admin' }).click();
        await page.waitForURL('**/admin/users');
        await main.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
        await main.getByRole('table', { name: 'Users' }).waitFor();
        await expectAccessible(page, '/admin/users');

        // Search as you type; the member is the one row left.
        await main.getByRole('searchbox', { name: 'Search users' }).fill('mina');
        await page.waitForURL((url) => url.pathname === '/admin/users' && url.search === '?query=mina');
        const rows = main.getByTestId('user-row');
        await rows.filter({ hasText: 'mina.member@example.com' }).waitFor();
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
        assert.match(await rows.first().innerText(), /Career\s+Active\s+Yes\s+No/);

        await rows.first().getByRole('link', { name: 'Mina Member' }).click();
        await page.waitForURL(new RegExp(`/admin/users/${UUID}$`));
        const memberId = new URL(page.url()).pathname.split('/').pop();
        await main.getByRole('heading', { level: 1, name: 'Mina Member' }).waitFor();
        const sessions = main.getByRole('region', { name: 'Sessions' });
        await sessions.getByRole('button', { name: /^Sign out / }).first().waitFor();
        await expectAccessible(page, '/admin/users/{id}');

        // Suspend: a reason is required.
        await main.getByRole('button', { name: 'Suspend', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Suspend Mina Member?' });
        await dialog.getByRole('button', { name: 'Suspend account' }).click();
        await dialog.getByText('Reason is required', { exact: true }).waitFor();
        await expectAccessible(page, 'the suspend dialog with its error');
        await dialog.getByRole('textbox', { name: /Reason/ }).fill('Posting spam to recruiters');
        await dialog.getByRole('button', { name: 'Suspend account' }).click();
        await toast(page, 'Account suspended').waitFor();
        await main.getByRole('button', { name: 'Restore', exact: true }).waitFor();
        await sessions.getByText('No signed-in sessions.').waitFor();

        // The member's open session is refused: their next page shows them signed out, and
        // signing in again says why.
        await memberPage.goto('/profile');
        await desktopHeader(memberPage).getByRole('link', { name: 'Sign In' }).waitFor();
        assert.equal(await desktopHeader(memberPage).getByRole('button', { name: /Account menu/ }).count(), 0);
        await signInThroughUi(memberPage, member);
        await toast(memberPage, 'This account has been suspended').waitFor();

        // Restore, and the member signs in again.
        await main.getByRole('button', { name: 'Restore', exact: true }).click();
        await toast(page, 'Account restored').waitFor();
        await main.getByRole('button', { name: 'Suspend', exact: true }).waitFor();
        await signInThroughUi(memberPage, member);
        await memberPage.waitForURL(`${app.baseURL}/`);
        await desktopHeader(memberPage).getByRole('button', { name: 'Account menu for Mina Member' }).waitFor();

        // The audit trail, filtered to the member, and its CSV with the same filter.
        await main.getByRole('link', { name: 'Open in the audit log' }).click();
        await page.waitForURL((url) => url.pathname === '/admin/audit' && url.searchParams.get('userId') === memberId);
        await main.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
        await main.getByRole('table', { name: 'Audit log' }).waitFor();
        assert.equal(await main.getByRole('textbox', { name: 'User id' }).inputValue(), memberId);
        const csvLink = main.getByRole('link', { name: 'Export CSV' });
        const csvHref = await csvLink.getAttribute('href');
        assert.equal(csvHref, `/api/admin/audit.csv?userId=${memberId}`);
        // The download is a cookie-authenticated GET, like the link's.
        const csv = await page.request.get(csvHref);
        assert.equal(csv.status(), 200);
        assert.match(csv.headers()['content-type'] ?? '', /text\/csv/);
        const lines = (await csv.text()).trim().split(/\r?\n/);
        assert.ok(lines.length >= 2, 'a header line and the member’s events');
        assert.ok(lines.slice(1).every((line) => line.includes(memberId)), 'only the member’s events');
        await expectAccessible(page, '/admin/audit');

        // Organizations: the seat limit is set in place.
        await openSection(page, 'Organizations');
        const orbit = main.getByTestId('organization-row').filter({ hasText: 'Orbit Hiring' });
        await orbit.getByText('No limit').waitFor();
        assert.match((await orbit.getByRole('link', { name: 'Open Orbit Hiring' }).getAttribute('href')) ?? '', new RegExp(`^/organizations/${UUID}$`));
        await expectAccessible(page, '/admin/organizations');
        await orbit.getByRole('button', { name: 'Edit seat limit of Orbit Hiring' }).click();
        await orbit.getByRole('spinbutton', { name: 'Seat limit of Orbit Hiring' }).fill('10');
        await expectAccessible(page, '/admin/organizations while editing a seat limit');
        await orbit.getByRole('button', { name: 'Save', exact: true }).click();
        await toast(page, 'Organization updated').waitFor();
        await orbit.getByText('10', { exact: true }).waitFor();

        // Applications: the secret of a new client is shown once; its ID tokens are EdDSA.
        await openSection(page, 'Applications');
        await expectAccessible(page, '/admin/applications');
        const form = main.getByRole('form', { name: 'Register an application' });
        await form.getByRole('textbox', { name: /Name/ }).fill('Partner Portal');
        await form.getByRole('textbox', { name: /Redirect URIs/ }).fill('https://partner.example/callback');
        await form.getByRole('radio', { name: /EdDSA/ }).check();
        await form.getByRole('button', { name: 'Create application' }).click();
        const secretDialog = page.getByRole('dialog', { name: 'Partner Portal is registered' });
        const secret = (await secretDialog.getByTestId('client-secret').innerText()).trim();
        const clientId = (await secretDialog.getByTestId('client-id').innerText()).trim();
        assert.ok(secret.length >= 16, 'a secret is shown');
        await expectAccessible(page, 'the secret dialog');
        await secretDialog.getByRole('button', { name: 'Done' }).click();
        await secretDialog.waitFor({ state: 'detached' });
        const listed = main.getByTestId('oauth-client').filter({ hasText: 'Partner Portal' });
        await listed.getByText(clientId).waitFor();
        await listed.getByText('ID tokens signed with EdDSA').waitFor();
        assert.equal(await page.getByText(secret).count(), 0, 'the secret is gone once the dialog closes');
        await page.reload();
        await main.getByTestId('oauth-client').filter({ hasText: 'Partner Portal' }).waitFor();
        assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again');

        // News: the news admin's own controls.
        await openSection(page, 'News');
        await main.getByRole('region', { name: 'New post' }).waitFor();
        await expectAccessible(page, '/admin/news');
      });

      // The member is signed in again, and /admin is still a 404 page for them.
      await expectNotFound(memberPage, '/admin');
    });
  });
});
