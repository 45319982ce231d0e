import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { ResetPasswordPage } from './reset-password-page';

const routes = [
  { path: '/login', element: <h1>Login route</h1> },
  { path: '/forgot-password', element: <h1>Forgot route</h1> },
  { path: '/reset-password/:token', element: <ResetPasswordPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
];
const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

async function fillAndSubmit(password: string, confirm: string) {
  const events = userEvent.setup();
  if (password) await events.type(field('password'), password);
  if (confirm) await events.type(field('confirmPassword'), confirm);
  await events.click(screen.getByRole('button', { name: 'Reset Password' }));
  return events;
}

describe('ResetPasswordPage', () => {
  it('without a token goes to /forgot-password', async () => {
    mockApi({});
    renderWithApp(null, { route: '/reset-password', routes });
    expect(await screen.findByRole('heading', { name: 'Forgot route' })).toBeInTheDocument();
  });

  it('validates both fields and clears an error when its field changes', async () => {
    const api = mockApi({});
    renderWithApp(null, { route: '/reset-password/tok', routes });
    const events = await fillAndSubmit('', '');
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Confirm password is required')).toBeInTheDocument();
    // Focus goes to the first field to fix.
    expect(field('password')).toHaveFocus();
    await events.type(field('password'), 'abcdef');
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    await events.type(field('confirmPassword'), 'abcdeg');
    await events.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Must contain at least 6 chars, 1 letter & 1 number')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(field('password')).toHaveFocus();
    await events.clear(field('password'));
    await events.type(field('password'), 'abcde1');
    await events.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(field('confirmPassword')).toHaveFocus();
    expect(field('confirmPassword')).toHaveAccessibleDescription('Passwords do not match');
    expect(api.calls('/auth/reset-password/tok')).toHaveLength(0);
  });

  it('resets with the token from the path and goes to /login', async () => {
    const api = mockApi({ '/auth/reset-password/tok%2F1': { status: 200, body: { success: true, message: 'Password reset successfully' } } });
    renderWithApp(null, { route: '/reset-password/tok%2F1', routes });
    await fillAndSubmit('newpass1', 'newpass1');
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeInTheDocument();
    expect(api.calls('/auth/reset-password/tok%2F1')).toEqual([{ password: 'newpass1' }]);
    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
  });

  it('sends an expired link back to /forgot-password', async () => {
    mockApi({ '/auth/reset-password/old': { status: 410, body: { success: false, code: 'TOKEN_EXPIRED', message: 'Reset link has expired' } } });
    renderWithApp(null, { route: '/reset-password/old', routes });
    await fillAndSubmit('newpass1', 'newpass1');
    expect(await screen.findByRole('heading', { name: 'Forgot route' })).toBeInTheDocument();
    expect(await screen.findByText('Reset link has expired')).toBeInTheDocument();
  });

  it('stays on an invalid link and says so', async () => {
    mockApi({ '/auth/reset-password/used': { status: 400, body: { success: false, code: 'BAD_USER_INPUT', message: 'Reset link is invalid' } } });
    renderWithApp(null, { route: '/reset-password/used', routes });
    await fillAndSubmit('newpass1', 'newpass1');
    expect(await screen.findByText('Reset link is invalid')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeEnabled();
  });

  it('has show/hide toggles on both fields', async () => {
    mockApi({});
    const events = userEvent.setup();
    renderWithApp(null, { route: '/reset-password/tok', routes });
    await events.click(screen.getByRole('button', { name: 'Show new password' }));
    await events.click(screen.getByRole('button', { name: 'Show confirm password' }));
    expect(field('password')).toHaveAttribute('type', 'text');
    expect(field('confirmPassword')).toHaveAttribute('type', 'text');
  });
});
