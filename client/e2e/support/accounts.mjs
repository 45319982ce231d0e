// Accounts made the way the site makes them, through the REST API and the dev mailbox.
import assert from 'node:assert/strict';

import { latestOtp } from './mailbox.mjs';

/** POSTs JSON to `/api{path}`; returns the status and the parsed envelope. */
export async function postApi(baseURL, path, body) {
  const response = await fetch(`${baseURL}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Registers, verifies with the mailed code and returns the account with its session token. */
export async function verifiedAccount(baseURL, { name, email, password = 'quietRiver42', role = 'career' }) {
  const registered = await postApi(baseURL, '/auth/register', {
    name,
    email,
    countryCode: '+91',
    phone: '+919876543210',
    password,
    role,
  });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  assert.equal((await postApi(baseURL, '/auth/send-otp-email', { email })).status, 200);
  const otp = await latestOtp(baseURL, email);
  const verified = await postApi(baseURL, '/auth/verify-otp-email', { email, otp });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return { email, password, token: verified.body.data.token };
}

/** Saves `preferences.theme` for the account through PUT /api/users/profile. */
export async function saveThemePreference(baseURL, token, theme) {
  const response = await fetch(`${baseURL}/api/users/profile`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ preferences: { theme } }),
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.data.user.preferences.theme, theme);
}
