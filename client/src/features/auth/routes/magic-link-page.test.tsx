import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { MagicLinkPage } from './magic-link-page';

const routes = [
  { path: '/login', element: <h1>Login route</h1> },
  { path: '/magic-link/:token', element: <MagicLinkPage /> },
];

describe('MagicLinkPage', () => {
  it('signs no one in until Continue is pressed', async () => {
    const api = mockApi({});
    renderWithApp(null, { route: '/magic-link/tok', routes });
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeInTheDocument();
    expect(api.calls('/auth/magic-link/tok')).toHaveLength(0);
  });

  it('shows why a used or expired link fails, with the way back to sign in', async () => {
    const api = mockApi({ '/auth/magic-link/old': { status: 410, body: { success: false, code: 'TOKEN_EXPIRED', message: 'Sign-in link has expired' } } });
    renderWithApp(null, { route: '/magic-link/old', routes });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue' }));
    // Said on the page, where it stays (a toast says it too, for 3 s).
    expect(await screen.findByText('Sign-in link has expired', { selector: 'p[role="alert"]' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/login');
    expect(api.calls('/auth/magic-link/old')).toEqual([{}]);
  });

  it('hands a two-factor challenge to the login page', async () => {
    mockApi({ '/auth/magic-link/tf': { status: 200, body: { success: true, message: 'Enter the code', data: { twoFactorRequired: true, challenge: 'ch' } } } });
    renderWithApp(null, { route: '/magic-link/tf', routes });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeInTheDocument();
  });
});
