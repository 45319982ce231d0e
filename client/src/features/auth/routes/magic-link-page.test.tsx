import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { fullPageNavigation } from '../hooks/use-finish-sign-in';
import { MagicLinkPage } from './magic-link-page';

const routes = [
  { path: '/login', element: <h1>Login route</h1> },
  { path: '/magic-link/:token', element: <MagicLinkPage /> },
];

const shown = (email: string) => ({ status: 200, body: { success: true, data: { email } } });

describe('MagicLinkPage', () => {
  it('names the account the link opens, and signs no one in until Continue is pressed', async () => {
    const api = mockApi({ '/auth/magic-link/tok': shown('asha@example.com') });
    renderWithApp(null, { route: '/magic-link/tok', routes });
    const button = await screen.findByRole('button', { name: 'Continue' });
    // Read with the button, and announced when it is known.
    expect(button).toHaveAccessibleDescription('Signing in as asha@example.com');
    expect(screen.getByRole('status')).toHaveTextContent('Signing in as asha@example.com');
    expect(api.fetchMock.mock.calls.map(([, init]) => init?.method)).toEqual(['GET']);
  });

  it('keeps a good link when the check could not be made, and tries again', async () => {
    mockApi({
      '/auth/magic-link/busy': [
        { status: 503, body: { success: false, code: 'SERVICE_UNAVAILABLE', message: 'The server is busy. Please try again.' } },
        shown('asha@example.com'),
      ],
    });
    renderWithApp(null, { route: '/magic-link/busy', routes });
    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy. Please try again.');
    expect(screen.queryByRole('link', { name: 'Back to Sign In' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Continue' })).toHaveAccessibleDescription('Signing in as asha@example.com');
  });

  it('offers no Continue until it knows whose account the link opens', async () => {
    mockApi({ '/auth/magic-link/slow': shown('asha@example.com') });
    renderWithApp(null, { route: '/magic-link/slow', routes });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your link...');
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });

  it('says at once when the link is used or expired, with the way back to sign in', async () => {
    const api = mockApi({ '/auth/magic-link/old': { status: 410, body: { success: false, code: 'TOKEN_EXPIRED', message: 'Sign-in link has expired' } } });
    renderWithApp(null, { route: '/magic-link/old', routes });
    expect(await screen.findByText('Sign-in link has expired', { selector: 'p[role="alert"]' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    // Nothing on the page still asks for a Continue that is gone.
    expect(screen.getByText('This link cannot sign you in.')).toBeVisible();
    expect(screen.queryByText(/Press Continue/)).not.toBeInTheDocument();
    expect(api.fetchMock.mock.calls.map(([, init]) => init?.method)).toEqual(['GET']);
  });

  it('shows why Continue failed when the link went meanwhile', async () => {
    const api = mockApi({
      '/auth/magic-link/gone': [shown('asha@example.com'), { status: 400, body: { success: false, code: 'BAD_REQUEST', message: 'Sign-in link is invalid' } }],
    });
    renderWithApp(null, { route: '/magic-link/gone', routes });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue' }));
    // Said on the page, where it stays (a toast says it too, for 3 s).
    expect(await screen.findByText('Sign-in link is invalid', { selector: 'p[role="alert"]' })).toBeVisible();
    expect(api.calls('/auth/magic-link/gone')).toEqual([undefined, {}]);
  });

  it('keeps Continue when signing in could not be done this time', async () => {
    const api = mockApi({
      '/auth/magic-link/flaky': [
        shown('asha@example.com'),
        { status: 503, body: { success: false, code: 'SERVICE_UNAVAILABLE', message: 'The server is busy. Please try again.' } },
      ],
    });
    renderWithApp(null, { route: '/magic-link/flaky', routes });
    const events = userEvent.setup();
    await events.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The server is busy. Please try again.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to Sign In' })).not.toBeInTheDocument();
    const again = await screen.findByRole('button', { name: 'Continue' });
    expect(again).toBeEnabled();
    await events.click(again);
    expect(api.calls('/auth/magic-link/flaky')).toEqual([undefined, {}, {}]);
  });

  it('ends at the page the link was asked from', async () => {
    const assign = vi.spyOn(fullPageNavigation, 'assign').mockImplementation(() => {});
    mockApi({
      '/auth/magic-link/back': [
        shown('asha@example.com'),
        { status: 200, body: { success: true, message: 'Logged in successfully', data: { user: { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'career' }, token: 'jwt-1' } } },
      ],
    });
    renderWithApp(null, { route: `/magic-link/back?redirect=${encodeURIComponent('/security?tab=sessions')}`, routes });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://main.example.test/security?tab=sessions'));
  });

  it('hands a two-factor challenge to the login page', async () => {
    mockApi({ '/auth/magic-link/tf': [shown('asha@example.com'), { status: 200, body: { success: true, message: 'Enter the code', data: { twoFactorRequired: true, challenge: 'ch' } } }] });
    renderWithApp(null, { route: '/magic-link/tf', routes });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeInTheDocument();
  });
});
