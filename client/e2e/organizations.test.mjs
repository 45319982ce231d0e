// Organizations against the real server (issue 21): a Hire owner creates an organization and
// invites two people from a CSV file; one of them opens the mailed link in a browser of their
// own, registers from it (the address prefilled, back to the invitation after the emailed code)
// and accepts; the owner makes them an admin; they leave. axe runs on /organizations,
// /organizations/{id} and /invitations/{token} at desktop width and at 360 px.
// Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { DESKTOP, launchBrowser, seriousA11yViolations, toast, withPage } from './support/browser.mjs';
import { latestInvitationLink, latestOtp } from './support/mailbox.mjs';

const preview = process.env.E2E_PREVIEW === '1';
/** The narrowest phone the site is checked at. */
const NARROW = { width: 360, height: 780 };
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
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

/** GET `/api{path}` as the holder of `token`; the status and the envelope. */
async function getApi(path, token) {
  const response = await fetch(`${app.baseURL}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

const memberRow = (main, name) => main.getByTestId('member').filter({ hasText: name });

describe('organizations (real server)', { skip: preview && 'needs the real server' }, () => {
  test('a visitor is asked to sign in, and an unknown invitation says so', async () => {
    await withPage(browser, app.baseURL, 'organizations visitor', async (page) => {
      const response = await page.goto('/organizations');
      assert.equal(response?.status(), 200, '/organizations is a page of the site');
      const main = page.locator('main');
      await main.getByText('Please sign in to see your organizations.').waitFor();
      assert.equal(await main.getByRole('link', { name: 'Sign In' }).getAttribute('href'), '/login?redirect=%2Forganizations');
      await expectAccessible(page, '/organizations signed out');

      const missing = await page.goto('/invitations/no-such-invitation-token');
      assert.equal(missing?.status(), 200, '/invitations/{token} is a page of the site');
      await main.getByRole('heading', { level: 1, name: 'Invitation not found' }).waitFor();
      await expectAccessible(page, 'an unknown invitation');
    });
  });

  test('an invitee with no account declines from the link, and the link is done with', async () => {
    const owner = await verifiedAccount(app.baseURL, { name: 'Dana Owner', email: 'dana.owner@example.com', role: 'hire' });
    const post = async (path, body) => {
      const response = await fetch(`${app.baseURL}/api${path}`, { method: 'POST', headers: { Authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    };
    const created = await post('/orgs', { name: 'Delta Hiring' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const organizationId = created.body.data.organization.id;
    const sent = await post(`/orgs/${organizationId}/invitations`, { emails: ['nina.no@example.com'], role: 'member' });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const link = await latestInvitationLink(app.baseURL, 'nina.no@example.com');

    await withPage(browser, app.baseURL, 'organizations decliner', async (page) => {
      await page.goto(link);
      const main = page.locator('main');
      await main.getByRole('heading', { level: 1, name: 'Join Delta Hiring' }).waitFor();
      await main.getByRole('button', { name: 'Decline' }).click();
      await toast(page, 'Invitation declined').waitFor();
      await main.getByRole('heading', { level: 1, name: 'Invitation declined' }).waitFor();
      await main.getByText('You will not join Delta Hiring, and the link no longer works.', { exact: false }).waitFor();
      await expectAccessible(page, '/invitations/{token} declined');
      // Opened again, the link says it has expired.
      await page.reload();
      await main.getByRole('heading', { level: 1, name: 'This invitation has expired' }).waitFor();
    });
    const pending = await getApi(`/orgs/${organizationId}/invitations`, owner.token);
    assert.deepEqual(pending.body.data.items, [], 'the owner has nothing pending');
  });

  test('a Hire owner creates an organization and invites by CSV; the invitee registers from the link, accepts, is made an admin and leaves', async () => {
    const owner = await verifiedAccount(app.baseURL, { name: 'Olivia Owner', email: 'olivia.owner@example.com', role: 'hire' });
    const invitee = { name: 'Ivan Invitee', email: 'ivan.invitee@example.com', password: 'quietRiver42' };
    const second = 'sara.second@example.com';
    let organizationId;
    let secondLink;

    await withPage(browser, app.baseURL, 'organizations owner', async (ownerPage) => {
      await signInThroughUi(ownerPage, owner);
      await ownerPage.waitForURL(`${app.baseURL}/`);

      // The account menu leads to the new page.
      const trigger = desktopHeader(ownerPage).getByRole('button', { name: 'Account menu for Olivia Owner' });
      await trigger.click();
      const panel = ownerPage.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
      await panel.getByRole('link', { name: 'Organizations' }).click();
      await ownerPage.waitForURL('**/organizations');
      const main = ownerPage.locator('main');
      await main.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
      await main.getByText('You are not in any organization yet.', { exact: false }).waitFor();
      const create = main.getByRole('form', { name: 'Create organization' });
      await create.getByRole('button', { name: 'Create organization' }).click();
      await create.getByText('Organization name is required', { exact: true }).waitFor();
      await expectAccessible(ownerPage, '/organizations with a form error');

      await create.getByLabel('Organization name').fill('Orbit Talent');
      await create.getByRole('button', { name: 'Create organization' }).click();
      await toast(ownerPage, 'Organization created').waitFor();
      await ownerPage.waitForURL(new RegExp(`/organizations/${UUID}$`));
      organizationId = new URL(ownerPage.url()).pathname.split('/').pop();
      await main.getByRole('heading', { level: 1, name: 'Orbit Talent' }).waitFor();
      await main.getByText('Hire organization', { exact: true }).waitFor();
      await main.getByText('Your role: Owner · 1 member').waitFor();
      await memberRow(main, 'Olivia Owner').waitFor();
      assert.equal(await main.getByTestId('member').count(), 1);

      // Two addresses from a CSV file, its header row and name column passed over.
      const invite = main.getByRole('form', { name: 'Invite people' });
      await invite.getByLabel('Or add addresses from a CSV file').setInputFiles({
        name: 'people.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`Name,Email\r\nIvan Invitee,${invitee.email}\r\nSara Second,${second}\r\n`),
      });
      await invite.getByText('Added 2 addresses from people.csv.').waitFor();
      assert.equal(await invite.getByLabel('Email addresses').inputValue(), `${invitee.email}\n${second}`);
      await invite.getByRole('button', { name: 'Send invitations' }).click();
      await toast(ownerPage, 'Invitations sent').waitFor();
      const result = main.getByTestId('invite-result');
      await result.getByText('Sent 2 invitations:').waitFor();
      for (const email of [invitee.email, second]) await result.getByText(email, { exact: true }).waitFor();
      await ownerPage.waitForFunction(() => document.querySelectorAll('[data-testid="invitation"]').length === 2);

      // Sending the same addresses again skips them, with the reason in words.
      await invite.getByLabel('Email addresses').fill(`${second}, not-an-address`);
      await invite.getByRole('button', { name: 'Send invitations' }).click();
      await result.getByText(`${second}: already invited`).waitFor();
      await result.getByText('not-an-address: not a valid email address').waitFor();
      await expectAccessible(ownerPage, '/organizations/{id} as owner');

      const link = await latestInvitationLink(app.baseURL, invitee.email);
      assert.match(link, new RegExp(`^${app.baseURL}/invitations/[^/]+$`));
      secondLink = await latestInvitationLink(app.baseURL, second);
      assert.ok(secondLink, 'the second address is mailed too');

      await withPage(browser, app.baseURL, 'organizations invitee', async (page) => {
        const response = await page.goto(link);
        assert.equal(response?.status(), 200);
        const inviteeMain = page.locator('main');
        await inviteeMain.getByRole('heading', { level: 1, name: 'Join Orbit Talent' }).waitFor();
        await inviteeMain.getByText('Olivia Owner invites you to join Orbit Talent as a member.').waitFor();
        await inviteeMain.getByRole('link', { name: 'Sign in' }).waitFor();
        await expectAccessible(page, '/invitations/{token} signed out');

        // Register from the invitation: the address is filled in, and the code leads back.
        await inviteeMain.getByRole('link', { name: 'Register' }).click();
        await page.waitForURL('**/register?**');
        await page.getByRole('heading', { level: 1, name: 'Create Your Account' }).waitFor();
        await page.waitForFunction((email) => document.querySelector('input[name="email"]')?.value === email, invitee.email);
        await page.getByLabel('Full Name').fill(invitee.name);
        await page.getByLabel('Phone').fill('9876543210');
        await page.locator('input[name="password"]').fill(invitee.password);
        await page.getByRole('button', { name: 'Register', exact: true }).click();
        await page.waitForURL('**/verify-otp');
        await page.locator('input[name="otp"]').fill(await latestOtp(app.baseURL, invitee.email));
        await page.getByRole('button', { name: 'Verify OTP' }).click();
        await page.waitForURL(link);
        await toast(page, 'Email verified successfully!').waitFor();
        const accept = inviteeMain.getByRole('button', { name: 'Accept invitation' });
        await accept.waitFor();
        await expectAccessible(page, '/invitations/{token} signed in');

        await accept.click();
        await toast(page, 'You joined Orbit Talent').waitFor();
        await page.waitForURL(`**/organizations/${organizationId}`);
        await inviteeMain.getByText('Your role: Member · 2 members').waitFor();
        // The members list loads after the header: wait for its rows, then count what is absent.
        await memberRow(inviteeMain, 'Olivia Owner').waitFor();
        assert.equal(await inviteeMain.getByRole('combobox').count(), 0, 'a member changes no role');
        assert.equal(await inviteeMain.getByRole('heading', { name: 'Invite people' }).count(), 0, 'a member invites no one');
        await expectAccessible(page, '/organizations/{id} as member');
        // A Career account in an organization now finds it in the account menu.
        const trigger = desktopHeader(page).getByRole('button', { name: 'Account menu for Ivan Invitee' });
        await trigger.click();
        const panel = page.locator(`[id="${await trigger.getAttribute('aria-controls')}"]`);
        await panel.getByRole('link', { name: 'Organizations' }).waitFor();
        await trigger.click();

        // The owner makes them an admin.
        await ownerPage.reload();
        const role = memberRow(main, invitee.name).getByRole('combobox', { name: `Role of ${invitee.name}` });
        // By keyboard: an arrow key moves through the roles and grants nothing until Save.
        await role.focus();
        await ownerPage.keyboard.press('ArrowUp');
        await memberRow(main, invitee.name).getByRole('button', { name: `Save role of ${invitee.name}` }).waitFor();
        const before = await getApi(`/orgs/${organizationId}/members?limit=20`, owner.token);
        assert.equal(before.body.data.items.find((item) => item.user.email === invitee.email)?.role, 'member');
        await role.selectOption('admin');
        await memberRow(main, invitee.name).getByRole('button', { name: `Save role of ${invitee.name}` }).click();
        await toast(ownerPage, 'Member updated').waitFor();
        assert.ok(await role.evaluate((el) => el === document.activeElement), 'the keyboard stays on the role');
        const members = await getApi(`/orgs/${organizationId}/members?limit=20`, owner.token);
        assert.equal(members.status, 200, JSON.stringify(members.body));
        assert.equal(members.body.data.items.find((item) => item.user.email === invitee.email)?.role, 'admin');

        // As an admin they now see the admin's controls, then leave.
        await page.reload();
        await inviteeMain.getByText('Your role: Admin · 2 members').waitFor();
        await inviteeMain.getByRole('heading', { level: 2, name: 'Invite people' }).waitFor();
        // The members list loads after the header: wait for its rows, then count what is absent.
        await memberRow(inviteeMain, 'Olivia Owner').waitFor();
        assert.equal(await memberRow(inviteeMain, 'Olivia Owner').getByRole('button', { name: /^Remove/ }).count(), 0, 'an admin cannot remove an owner');
        await memberRow(inviteeMain, invitee.name).getByRole('button', { name: 'Leave organization' }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Leave Orbit Talent?' });
        await dialog.getByRole('button', { name: 'Leave organization' }).click();
        await toast(page, 'Member removed').waitFor();
        await page.waitForURL('**/organizations');
        await inviteeMain.getByText('You are not in any organization yet.', { exact: false }).waitFor();
        const gone = await page.goto(`/organizations/${organizationId}`);
        assert.equal(gone?.status(), 200);
        await inviteeMain.getByRole('heading', { level: 1, name: 'Organization not found' }).waitFor();
        await expectAccessible(page, '/organizations/{id} not found');
      });

      await ownerPage.reload();
      await main.getByText('Your role: Owner · 1 member').waitFor();
      // The members list loads after the header: wait for it, then count.
      await memberRow(main, 'Olivia Owner').waitFor();
      assert.equal(await main.getByTestId('member').count(), 1);
      // Accepted, the invitee's invitation is no longer pending; the second one still is.
      await ownerPage.waitForFunction(() => document.querySelectorAll('[data-testid="invitation"]').length === 1);
      await main.getByRole('button', { name: `Revoke the invitation for ${second}` }).click();
      await toast(ownerPage, 'Invitation revoked').waitFor();
      await main.getByText('No invitation is waiting for an answer.').waitFor();
    });
    const revoked = await fetch(`${app.baseURL}/api/invitations/${secondLink.split('/').pop()}`);
    assert.equal(revoked.status, 410, 'a revoked invitation has expired');
    // Its mail, never delivered here (no SMTP under local), is taken back with it.
    const mailbox = await (await fetch(`${app.baseURL}/dev/mailbox`)).text();
    assert.ok(!mailbox.includes(secondLink), 'the revoked invitation is not mailed');
  });
});
