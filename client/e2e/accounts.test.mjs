// The account screens against the real server: registration with the mailed code, sign-in
// (full-page navigation, wrong password), forgot/reset password through the mailed link, the
// profile with a saved edit, Google sign-up and sign-in through the popup and a stand-in
// identity provider, and axe on every screen. Needs the server: skipped under E2E_PREVIEW=1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postApi, verifiedAccount } from './support/accounts.mjs';
import { startApp } from './support/app-server.mjs';
import { DESKTOP, launchBrowser, PHONE, screenshot, seriousA11yViolations, toast, withPage } from './support/browser.mjs';
import { googleEnv, startFakeIdp } from './support/fake-idp.mjs';
import { latestOtp, latestResetLink } from './support/mailbox.mjs';
import { totp } from './support/totp.mjs';

const preview = process.env.E2E_PREVIEW === '1';
const CLIENT_ID = 'e2e-client';
let app;
let idp;
let browser;

before(async () => {
  if (preview) return;
  idp = await startFakeIdp({ clientId: CLIENT_ID });
  app = await startApp({ env: googleEnv(idp, CLIENT_ID) });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
  await idp?.stop();
});

const api = (path, body) => postApi(app.baseURL, path, body);
const verifiedUser = (account) => verifiedAccount(app.baseURL, account);

const desktopHeader = (page) => page.locator('header > div').first();

async function expectSignedIn(page, name) {
  await desktopHeader(page).getByRole('button', { name: new RegExp(name) }).waitFor({ timeout: 10_000 });
}

/** Marks the current document so a full-page navigation (which drops it) can be told apart. */
const markDocument = (page) => page.evaluate(() => { window.__e2eSameDocument = true; });
const sameDocument = (page) => page.evaluate(() => window.__e2eSameDocument === true);

async function signInThroughUi(page, { email, password }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('account screens (real server)', { skip: preview && 'needs the real server' }, () => {
  test('register through the UI, verify the mailed code, and the header shows the new account', async () => {
    const email = 'riya.register@example.com';
    await withPage(browser, app.baseURL, 'register and verify', async (page) => {
      await page.goto('/register');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      for (const message of ['Full Name is required', 'Email is required', 'Phone number is required', 'Password is required']) {
        await page.getByText(message, { exact: true }).waitFor();
      }
      assert.deepEqual(await seriousA11yViolations(page), [], 'register with errors shown');
      // Editing the name (the role unchanged) clears its error, and only that one.
      await page.getByLabel('Full Name').fill('Riya');
      await page.getByText('Full Name is required', { exact: true }).waitFor({ state: 'detached' });
      assert.ok(await page.getByText('Phone number is required', { exact: true }).isVisible(), 'the other errors stay');
      await page.locator('form').getByText('Institute', { exact: true }).click();
      await page.getByLabel('Institute Name').fill('Riya Institute');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone').fill('9876543210');
      await page.locator('input[name="password"]').fill('quietRiver42');
      await page.getByRole('button', { name: 'Register', exact: true }).click();

      await page.waitForURL('**/verify-otp');
      await toast(page, 'Registered successfully').waitFor();
      await toast(page, 'OTP sent to your email').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Verify Your Email' }).waitFor();
      assert.match(await page.getByRole('button', { name: /^Resend in \d+s$/ }).innerText(), /Resend in (59|60)s/);
      assert.ok(await page.getByRole('button', { name: /^Resend in/ }).isDisabled());
      assert.deepEqual(await seriousA11yViolations(page), [], 'verify OTP screen');

      await page.locator('input[name="otp"]').fill('000000');
      await page.getByRole('button', { name: 'Verify OTP' }).click();
      await page.locator('form').getByText('Invalid OTP', { exact: true }).waitFor();

      const otp = await latestOtp(app.baseURL, email);
      await page.locator('input[name="otp"]').fill(otp);
      await page.getByRole('button', { name: 'Verify OTP' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await toast(page, 'Email verified successfully!').waitFor();
      // The toast sits beneath the header: the account menu's button stays in reach.
      const [toastBox, headerBox] = await Promise.all([
        toast(page, 'Email verified successfully!').boundingBox(),
        page.locator('header').first().boundingBox(),
      ]);
      assert.ok(toastBox && headerBox && toastBox.y >= headerBox.y + headerBox.height - 1, `toast ${JSON.stringify(toastBox)} header ${JSON.stringify(headerBox)}`);
      await expectSignedIn(page, 'Riya Institute');
      assert.ok(await page.evaluate(() => localStorage.getItem('token')), 'the token is stored');
    });
  });

  test('/verify-otp without an email goes back to /register with the error', async () => {
    await withPage(browser, app.baseURL, 'verify without state', async (page) => {
      await page.goto('/verify-otp');
      await page.waitForURL('**/register');
      await toast(page, 'Invalid verification state. Please register again.').waitFor();
    });
  });

  test('sign in: a wrong password shows the server message; the right one ends with a full-page navigation', async () => {
    const user = await verifiedUser({ name: 'Kabir Login', email: 'kabir.login@example.com' });
    await withPage(browser, app.baseURL, 'login', async (page) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      await page.getByText('Password is required', { exact: true }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'login with errors shown');
      await page.getByLabel('Email').fill('not-an-email');
      assert.equal(await page.getByText('Email is required').count(), 0, 'the email error clears on edit');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Invalid email format', { exact: true }).waitFor();

      await page.getByLabel('Email').fill(user.email);
      await page.locator('input[name="password"]').fill('wrong-password1');
      await page.getByRole('button', { name: 'Show password' }).click();
      assert.equal(await page.locator('input[name="password"]').getAttribute('type'), 'text');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await toast(page, 'Invalid email or password').waitFor();
      assert.equal(new URL(page.url()).pathname, '/login');

      await page.locator('input[name="password"]').fill(user.password);
      await markDocument(page);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await expectSignedIn(page, 'Kabir Login');
      assert.equal(await sameDocument(page), false, 'a full-page navigation, not a client-side one');
    });
  });

  test('sign in honours ?redirect= only for the platform origins', async () => {
    const user = await verifiedUser({ name: 'Meera Redirect', email: 'meera.redirect@example.com' });
    await withPage(browser, app.baseURL, 'login redirect', async (page) => {
      await page.goto(`/login?redirect=${encodeURIComponent(`${app.platformUrls.hire}/jobs`)}`);
      await page.getByLabel('Email').fill(user.email);
      await page.locator('input[name="password"]').fill(user.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${app.platformUrls.hire}/jobs`);
    });
    await withPage(browser, app.baseURL, 'login foreign redirect', async (page) => {
      await page.route('https://evil.example/**', (route) => route.fulfill({ status: 200, body: 'evil' }));
      await page.goto(`/login?redirect=${encodeURIComponent('https://evil.example/steal')}`);
      await page.getByLabel('Email').fill(user.email);
      await page.locator('input[name="password"]').fill(user.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(`${app.baseURL}/`);
    });
  });

  test('an unverified account is sent to /verify-otp with a fresh code', async () => {
    const email = 'nina.unverified@example.com';
    assert.equal((await api('/auth/register', { name: 'Nina', email, countryCode: '+91', phone: '+919876543210', password: 'quietRiver42', role: 'career' })).status, 201);
    await withPage(browser, app.baseURL, 'login unverified', async (page) => {
      await signInThroughUi(page, { email, password: 'quietRiver42' });
      await page.waitForURL('**/verify-otp');
      await page.getByText(email).waitFor();
      const otp = await latestOtp(app.baseURL, email);
      await page.locator('input[name="otp"]').fill(otp);
      await page.getByRole('button', { name: 'Verify OTP' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await expectSignedIn(page, 'Nina');
    });
  });

  test('forgot password, the mailed link, a new password, then sign in with it', async () => {
    const user = await verifiedUser({ name: 'Omar Reset', email: 'omar.reset@example.com' });
    await withPage(browser, app.baseURL, 'forgot and reset', async (page) => {
      await page.goto('/forgot-password');
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'forgot password with an error');
      await page.getByLabel('Email').fill(user.email);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await page.getByRole('heading', { name: 'Reset Link Sent!' }).waitFor();
      await page.getByText(user.email).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Back to Sign In' }).getAttribute('href'), '/login');

      const link = await latestResetLink(app.baseURL, user.email);
      assert.ok(link.startsWith(`${app.baseURL}/reset-password/`), link);
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'Reset Password' }).waitFor();
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.getByText('Confirm password is required', { exact: true }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'reset password with errors');
      await page.locator('input[name="password"]').fill('abcdef');
      await page.locator('input[name="confirmPassword"]').fill('abcdeg');
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.getByText('Must contain at least 6 chars, 1 letter & 1 number', { exact: true }).waitFor();
      await page.getByText('Passwords do not match', { exact: true }).waitFor();
      await page.locator('input[name="password"]').fill('newpass42');
      await page.locator('input[name="confirmPassword"]').fill('newpass42');
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.waitForURL('**/login');
      await toast(page, 'Password reset successfully').waitFor();

      await signInThroughUi(page, { email: user.email, password: user.password });
      await toast(page, 'Invalid email or password').waitFor();
      await signInThroughUi(page, { email: user.email, password: 'newpass42' });
      await page.waitForURL(`${app.baseURL}/`);
      await expectSignedIn(page, 'Omar Reset');
    });
  });

  test('a used reset link says it is invalid', async () => {
    await withPage(browser, app.baseURL, 'reset invalid', async (page) => {
      await page.goto('/reset-password/not-a-real-token');
      await page.locator('input[name="password"]').fill('newpass42');
      await page.locator('input[name="confirmPassword"]').fill('newpass42');
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await toast(page, 'Reset link is invalid').waitFor();
    });
  });

  test('the security page signs out another device and changes the password', async () => {
    const user = await verifiedUser({ name: 'Sam Secure', email: 'sam.secure@example.com' });
    const other = await api('/auth/login', { email: user.email, password: user.password });
    assert.equal(other.status, 200);
    const otherToken = other.body.data.token;
    const verify = (token) => fetch(`${app.baseURL}/api/auth/verify`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
    await withPage(browser, app.baseURL, 'security', async (page) => {
      await page.goto('/security');
      await page.getByText("Please sign in to manage your account's security.").waitFor();
      await signInThroughUi(page, user);
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/security');
      const main = page.locator('main');
      await main.getByText('This device').waitFor();
      assert.equal(await main.getByTestId('session').count(), 3, 'this browser, the API sign-in and the verification');
      assert.deepEqual(await seriousA11yViolations(page), [], 'security view');

      await main.getByRole('button', { name: 'Sign out every other session' }).click();
      await toast(page, 'Other sessions signed out').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 1);
      assert.equal(await verify(otherToken), 401, 'the other device is signed out at once');

      await main.getByRole('button', { name: 'Change password' }).click();
      await main.getByText('Password is required', { exact: true }).waitFor();
      await main.getByLabel('Current password').fill('not-my-password');
      await main.getByRole('textbox', { name: 'New password', exact: true }).fill('freshPass42');
      await main.getByRole('textbox', { name: 'Confirm new password' }).fill('freshPass42');
      await main.getByRole('button', { name: 'Change password' }).click();
      await main.getByText('Current password is incorrect', { exact: true }).waitFor();
      // Another device signs in meanwhile; the new password signs it out, and the list says so
      // without a reload (it once kept the signed-out row, whose Sign out said "Session not found").
      const late = await api('/auth/login', { email: user.email, password: user.password });
      assert.equal(late.status, 200);
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 2);
      await main.getByLabel('Current password').fill(user.password);
      await main.getByRole('textbox', { name: 'New password', exact: true }).fill('freshPass42');
      await main.getByRole('textbox', { name: 'Confirm new password' }).fill('freshPass42');
      await main.getByRole('button', { name: 'Change password' }).click();
      await toast(page, 'Password changed').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 1);
      assert.equal(await verify(late.body.data.token), 401);
      await page.reload();
      await main.getByText('This device').waitFor();
    });
    assert.equal((await api('/auth/login', { email: user.email, password: user.password })).status, 401);
    assert.equal((await api('/auth/login', { email: user.email, password: 'freshPass42' })).status, 200);
  });

  test('two-factor: enrol from the QR page, then sign in with an app code and with a recovery code', async () => {
    const user = await verifiedUser({ name: 'Tara Twofactor', email: 'tara.twofactor@example.com' });
    let secret;
    let codes;
    await withPage(browser, app.baseURL, 'two-factor enrol', async (page) => {
      await signInThroughUi(page, user);
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/security');
      const main = page.locator('main');
      await main.getByRole('button', { name: 'Set up two-factor' }).click();
      await main.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      secret = await main.getByTestId('two-factor-secret').getAttribute('data-secret');
      assert.match(secret ?? '', /^[A-Z2-7]{32}$/);
      assert.deepEqual(await seriousA11yViolations(page), [], 'two-factor setup');

      await main.getByLabel('Code from the app').fill('000000' === totp(secret) ? '111111' : '000000');
      await main.getByRole('button', { name: 'Turn on' }).click();
      await main.getByText('Invalid code', { exact: true }).waitFor();
      await main.getByLabel('Code from the app').fill(totp(secret));
      await main.getByRole('button', { name: 'Turn on' }).click();
      await toast(page, 'Two-factor sign-in is on').waitFor();
      const list = main.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      codes = await list.getByRole('listitem').allTextContents();
      assert.equal(codes.length, 10);
      const [download] = await Promise.all([page.waitForEvent('download'), main.getByRole('button', { name: 'Download codes' }).click()]);
      assert.equal(download.suggestedFilename(), 'talent-suite-recovery-codes.txt');
      const saved = await (await download.createReadStream()).toArray();
      assert.ok(Buffer.concat(saved).toString().includes(codes[0]), 'the file holds the codes');
      await main.getByRole('button', { name: 'I have saved my codes' }).click();
      await main.getByRole('button', { name: 'Turn off two-factor' }).waitFor();
      assert.equal(await main.getByText('Enabled', { exact: true }).count(), 1);
      assert.deepEqual(await seriousA11yViolations(page), [], 'two-factor on');
    });

    await withPage(browser, app.baseURL, 'two-factor app code', async (page) => {
      await signInThroughUi(page, user);
      await toast(page, 'Enter the code from your authenticator app').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Two-factor sign-in' }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'code step');
      await page.getByLabel('Authentication code').fill(totp(secret, 1) === '123456' ? '654321' : '123456');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Invalid code', { exact: true }).first().waitFor();
      // The code the enrolment used is spent; the next step's code is within the window.
      await page.getByLabel('Authentication code').fill(totp(secret, 1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await expectSignedIn(page, 'Tara');
    });

    await withPage(browser, app.baseURL, 'two-factor recovery code', async (page) => {
      await signInThroughUi(page, user);
      await page.getByLabel('Authentication code').fill(codes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await expectSignedIn(page, 'Tara');
    });
    const login = await api('/auth/login', { email: user.email, password: user.password });
    const reused = await api('/auth/login/two-factor', { challenge: login.body.data.challenge, code: codes[0] });
    assert.equal(reused.status, 400, 'a recovery code works once');
  });

  test('deleting the account from the security page needs the email typed, then signs out and goes home', async () => {
    const user = await verifiedUser({ name: 'Dee Delete', email: 'dee.delete@example.com' });
    await withPage(browser, app.baseURL, 'security delete', async (page) => {
      await signInThroughUi(page, user);
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/security');
      const main = page.locator('main');
      const remove = main.getByRole('button', { name: 'Delete my account' });
      await remove.waitFor();
      assert.equal(await remove.isDisabled(), true);
      await main.getByLabel('Your email').fill('DEE.DELETE@example.com');
      await remove.click();
      await toast(page, 'Account deleted').waitFor();
      await page.waitForURL(`${app.baseURL}/`);
      await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
    });
    assert.equal((await api('/auth/login', { email: user.email, password: user.password })).status, 401);
  });

  test('an admin publishes a post on /news and a visitor reads it there and at /news/{id}', async () => {
    app.cli(['create-admin', '--email', 'ada.admin@example.com', '--name', 'Ada Admin'], { ADMIN_PASSWORD: 'adminPass42' });
    await withPage(browser, app.baseURL, 'news admin', async (page) => {
      await page.goto('/news');
      await page.getByRole('progressbar', { name: 'Under Construction' }).waitFor();
      await signInThroughUi(page, { email: 'ada.admin@example.com', password: 'adminPass42' });
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/news');
      const main = page.locator('main');
      await main.getByRole('button', { name: 'Save post' }).click();
      await main.getByText('Title is required', { exact: true }).waitFor();
      await main.getByLabel('Title').fill('Campus placements open');
      await main.getByLabel('Summary').fill('The autumn placement season starts on Monday.');
      await main.getByLabel('Body').fill('First paragraph of the story.\n\nSecond paragraph of the story.');
      await main.getByRole('button', { name: 'Save post' }).click();
      await toast(page, 'News item created').waitFor();
      await main.getByRole('link', { name: 'Campus placements open' }).waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'news as admin');
      await main.getByRole('link', { name: 'Campus placements open' }).click();
      await main.getByRole('button', { name: /^Edit/ }).click();
      await main.getByLabel('Title').fill('Campus placements are open');
      await main.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'News item updated').waitFor();
      await main.getByRole('heading', { name: 'Campus placements are open' }).waitFor();
    });
    await withPage(browser, app.baseURL, 'news visitor', async (page) => {
      await page.goto('/news');
      const main = page.locator('main');
      await main.getByRole('link', { name: 'Campus placements are open' }).click();
      await page.waitForURL(/\/news\/[0-9a-f-]{36}$/);
      await main.getByRole('heading', { name: 'Campus placements are open' }).waitFor();
      await main.getByText('Second paragraph of the story.').waitFor();
      await main.getByText('Ada Admin', { exact: false }).waitFor();
      assert.equal(await main.getByRole('button', { name: /Delete|Edit/ }).count(), 0, 'no admin controls for a visitor');
      assert.deepEqual(await seriousA11yViolations(page), [], 'news item');
    });
  });

  test('the profile shows the account; an edit is saved and still there after a reload', async () => {
    const user = await verifiedUser({ name: 'Priya Profile', email: 'priya.profile@example.com', role: 'hire' });
    await withPage(browser, app.baseURL, 'profile', async (page) => {
      await page.goto('/profile');
      await page.getByText('Please sign in to view your profile.').waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'profile signed out');

      await signInThroughUi(page, user);
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/profile');
      const main = page.locator('main');
      await main.getByText('priya.profile@example.com').first().waitFor();
      for (const text of ['Priya Profile', 'Hire', 'Active', 'Personal Information', 'Social Profiles', 'Address', 'Preferences', 'Security', 'Disabled', '+919876543210']) {
        await main.getByText(text, { exact: true }).first().waitFor();
      }
      assert.equal(await main.getByRole('link', { name: 'Manage Security' }).getAttribute('href'), '/security');
      assert.deepEqual(await seriousA11yViolations(page), [], 'profile view');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'profile-phone');
      await page.setViewportSize(DESKTOP);
      await screenshot(page, 'profile-desktop');

      await main.getByRole('button', { name: 'Edit profile' }).click();
      assert.equal(await main.getByRole('textbox', { name: 'Email', exact: true }).getAttribute('readonly'), '');
      await main.getByLabel('Website').fill('not a url');
      await main.getByRole('button', { name: 'Save changes' }).click();
      await main.getByText('Website must be a valid http(s) URL').waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'profile edit with an error');
      await screenshot(page, 'profile-edit-desktop');
      await main.getByLabel('Website').fill('https://priya.example.com');
      await main.getByLabel('Bio').fill('Hiring lead for AI teams.');
      await main.getByLabel('GitHub').fill('priya-gh');
      await main.getByLabel('City').fill('Pune');
      await main.getByLabel('SMS notifications').check();
      await main.getByLabel('Light').check();
      await main.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Profile updated').waitFor();
      await main.getByText('Hiring lead for AI teams.').waitFor();

      await page.reload();
      for (const text of ['https://priya.example.com', 'Hiring lead for AI teams.', 'priya-gh', 'Pune', 'Light']) {
        await main.getByText(text, { exact: true }).first().waitFor();
      }
    });
  });

  test('deleting the account asks first, then signs out and goes home', async () => {
    const user = await verifiedUser({ name: 'Dev Delete', email: 'dev.delete@example.com' });
    await withPage(browser, app.baseURL, 'profile delete', async (page) => {
      await signInThroughUi(page, user);
      await page.waitForURL(`${app.baseURL}/`);
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Delete account' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
      await dialog.waitFor();
      assert.deepEqual(await seriousA11yViolations(page), [], 'delete dialog');
      await dialog.getByRole('button', { name: 'Delete account' }).click();
      await page.waitForURL(`${app.baseURL}/`);
      await toast(page, 'Account deleted').waitFor();
      await desktopHeader(page).getByRole('link', { name: 'Sign In' }).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
    });
    assert.equal((await api('/auth/login', user)).status, 401);
  });

  test('Google sign-up through the popup makes the account and opens the platform of the role; Google sign-in then works', async () => {
    idp.nextIdentity = { sub: 'google-sub-zara', email: 'zara.google@example.com', name: 'Zara Google' };
    await withPage(browser, app.baseURL, 'google register', async (page) => {
      await page.goto('/register');
      await page.locator('form').getByText('Hire', { exact: true }).click();
      // The popup's first request: its URL is gone by the time the popup is seen (it redirects at once).
      const started = page.context().waitForEvent('request', (request) => request.url().includes('/api/auth/google/start'));
      await page.getByRole('button', { name: 'Sign up with Google' }).click();
      const start = new URL((await started).url());
      assert.equal(start.search, '?intent=register&role=hire');
      await page.waitForURL(`${app.platformUrls.hire}/`, { timeout: 15_000 });
      await page.goto('/');
      await expectSignedIn(page, 'Zara Google');
    });
    const authorize = idp.requests.find((request) => request.path === '/authorize');
    assert.ok(authorize, 'the popup reached the identity provider');
    assert.equal(authorize.query.client_id, CLIENT_ID);

    await withPage(browser, app.baseURL, 'google login', async (page) => {
      await page.goto('/login');
      await markDocument(page);
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.waitForURL(`${app.baseURL}/`, { timeout: 15_000 });
      await expectSignedIn(page, 'Zara Google');
      assert.equal(await sameDocument(page), false);
    });
  });

  test('Google sign-in for an unknown account says to register first', async () => {
    idp.nextIdentity = { sub: 'google-sub-nobody', email: 'nobody.google@example.com', name: 'Nobody' };
    await withPage(browser, app.baseURL, 'google login unknown', async (page) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await toast(page, 'No account found for this Google email. Please register first.').waitFor({ timeout: 15_000 });
      assert.equal(new URL(page.url()).pathname, '/login');
    });
  });

  test('closing the Google popup shows a friendly message', async () => {
    await withPage(browser, app.baseURL, 'google popup closed', async (page) => {
      await page.context().route('**/api/auth/google/start**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>held</title>' }));
      await page.goto('/login');
      const popupOpened = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      const popup = await popupOpened;
      await popup.close();
      await toast(page, 'Google sign-in was cancelled: the window was closed.').waitFor();
    });
  });

  test('screens at desktop and phone widths, with no serious a11y violation', async () => {
    for (const [path, h1] of [
      ['/login', 'Sign In'],
      ['/register', 'Create Your Account'],
      ['/forgot-password', 'Forgot Password'],
      ['/reset-password/some-token', 'Reset Password'],
    ]) {
      // One page load for both widths: the layout follows the window as it narrows.
      await withPage(browser, app.baseURL, `${path} at both widths`, async (page) => {
        // A visitor's header is final at once (there is no session to check).
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
        assert.equal(await page.locator('h1').count(), 1);
        assert.equal(await page.title(), `${h1} | Talent Suite`);
        for (const [label, viewport] of [
          ['desktop', DESKTOP],
          ['phone', PHONE],
        ]) {
          await page.setViewportSize(viewport);
          for (const tag of ['Career', 'Campus', 'Hire']) {
            await page.getByRole('list', { name: 'Platforms' }).getByText(tag, { exact: true }).waitFor();
          }
          assert.deepEqual(await seriousA11yViolations(page), [], `${path} at ${label} width`);
          await screenshot(page, `account-${path.split('/')[1]}-${label}`);
        }
      });
    }
  });

  test('a reset link without a token goes to /forgot-password', async () => {
    await withPage(browser, app.baseURL, 'reset without token', async (page) => {
      await page.goto('/reset-password');
      await page.waitForURL('**/forgot-password');
    });
  });
});
