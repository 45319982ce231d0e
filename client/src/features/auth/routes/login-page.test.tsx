import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp, testConfig } from '@/test/render';
import { fullPageNavigation } from '../hooks/use-finish-sign-in';
import { LoginPage } from './login-page';

const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'hire', status: 'active' };
const passwordInput = () => document.querySelector<HTMLInputElement>('input[name="password"]')!;

function OtpState() {
  return <pre data-testid="otp-state">{JSON.stringify(useLocation().state)}</pre>;
}

/** The site as deployed with Google sign-in set up. */
const withGoogle = testConfig({ VITE_GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' });

function setup(route = '/login', config = withGoogle) {
  const assign = vi.spyOn(fullPageNavigation, 'assign').mockImplementation(() => {});
  renderWithApp(<LoginPage />, { route, config, routes: [{ path: '/verify-otp', element: <h1>OTP route</h1> }] });
  return { assign, events: userEvent.setup() };
}

describe('LoginPage', () => {
  it('emails a sign-in link with the email alone, and asks for it first', async () => {
    const sent = 'If an account exists for this email, a sign-in link has been sent.';
    const api = mockApi({ '/auth/magic-link': { status: 200, body: { success: true, message: sent } } });
    const { events } = setup();
    await events.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(api.calls('/auth/magic-link')).toHaveLength(0);
    await events.type(screen.getByLabelText(/Email/), ' asha@example.com ');
    await events.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(await screen.findByText(sent)).toBeInTheDocument();
    expect(api.calls('/auth/magic-link')).toEqual([{ email: 'asha@example.com' }]);
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('sends the page of this site that asked for a sign-in with the link, and no other', async () => {
    const api = mockApi({ '/auth/magic-link': { status: 200, body: { success: true, message: 'sent' } } });
    const { events } = setup(`/login?redirect=${encodeURIComponent('/security?tab=sessions')}`);
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    await waitFor(() => expect(api.calls('/auth/magic-link')).toEqual([{ email: 'asha@example.com', redirect: '/security?tab=sessions' }]));
  });

  it('sends no redirect with the link for another site', async () => {
    const api = mockApi({ '/auth/magic-link': { status: 200, body: { success: true, message: 'sent' } } });
    const { events } = setup(`/login?redirect=${encodeURIComponent('//evil.example/x')}`);
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    await waitFor(() => expect(api.calls('/auth/magic-link')).toEqual([{ email: 'asha@example.com' }]));
  });

  it('shows the required errors, and each clears when its field is edited', async () => {
    const api = mockApi({});
    const { events } = setup();
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    // Focus goes to the first field to fix, which reads out its error.
    expect(screen.getByLabelText(/Email/)).toHaveFocus();
    expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription('Email is required');
    await events.type(screen.getByLabelText(/Email/), 'a');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(api.calls('/auth/login')).toHaveLength(0);
  });

  it('moves focus to the first invalid field, wherever it is', async () => {
    mockApi({});
    const { events } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(passwordInput()).toHaveFocus();
    expect(passwordInput()).toHaveAccessibleDescription('Password is required');
    await events.clear(screen.getByLabelText(/Email/));
    await events.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(screen.getByLabelText(/Email/)).toHaveFocus();
  });

  it('checks the email format before calling the server', async () => {
    const api = mockApi({});
    const { events } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    expect(api.calls('/auth/login')).toHaveLength(0);
  });

  it('signs in, stores the token and leaves with a full-page navigation to the main platform', async () => {
    const api = mockApi({ '/auth/login': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'jwt-1' } } } });
    const { events, assign } = setup();
    await events.type(screen.getByLabelText(/Email/), ' asha@example.com ');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://main.example.test'));
    expect(api.calls('/auth/login')).toEqual([{ email: 'asha@example.com', password: 'secret1' }]);
    expect(window.localStorage.getItem('token')).toBe('jwt-1');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    // The page is leaving: every way to sign in stays busy, so a second click sends nothing.
    const busy = screen.getByRole('button', { name: 'Signing In...' });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    await events.click(busy);
    expect(api.calls('/auth/login')).toHaveLength(1);
    expect(assign).toHaveBeenCalledOnce();
    // Back from the platform: the browser restores the page as it was left, and its buttons
    // work again.
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
  });

  it('falls back to "Login failed" when the server gives no message', async () => {
    mockApi({ '/auth/login': { status: 500, body: null } });
    const { events, assign } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it("remembers the user's theme before leaving, so the next page paints in it", async () => {
    const lightUser = { ...user, preferences: { notifications: { email: true, sms: false, push: true }, theme: 'light' } };
    mockApi({ '/auth/login': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user: lightUser, token: 'jwt-1' } } } });
    const { events, assign } = setup();
    let rememberedAtLeave: string | null = null;
    assign.mockImplementation(() => {
      rememberedAtLeave = window.localStorage.getItem('theme');
    });
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(rememberedAtLeave).toBe('light');
  });

  it.each([
    ['https://career.example.test/roadmap', 'https://career.example.test/roadmap'],
    ['https://evil.example/x', 'https://main.example.test'],
  ])('honours a redirect to a platform origin and ignores any other: %s leads to %s', async (redirect, expected) => {
    mockApi({ '/auth/login': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 't' } } } });
    const { events, assign } = setup(`/login?redirect=${encodeURIComponent(redirect)}`);
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(assign).toHaveBeenCalledWith(expected);
  });

  it('shows the server message on a wrong password and stays', async () => {
    mockApi({ '/auth/login': { status: 401, body: { success: false, code: 'UNAUTHENTICATED', message: 'Invalid email or password' } } });
    const { events, assign } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'wrong1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('sends an unverified account to /verify-otp after asking for a fresh code', async () => {
    const api = mockApi({
      '/auth/login': { status: 403, body: { success: false, code: 'EMAIL_NOT_VERIFIED', message: 'Please verify your email before signing in' } },
      '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } },
    });
    const { events } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'OTP route' })).toBeInTheDocument();
    expect(api.calls('/auth/send-otp-email')).toEqual([{ email: 'asha@example.com' }]);
  });

  it('keeps a same-site redirect (an invitation) through registration and email verification', async () => {
    mockApi({
      '/auth/login': { status: 403, body: { success: false, code: 'EMAIL_NOT_VERIFIED', message: 'Please verify your email before signing in' } },
      '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } },
    });
    const assign = vi.spyOn(fullPageNavigation, 'assign').mockImplementation(() => {});
    renderWithApp(<LoginPage />, { route: '/login?redirect=%2Finvitations%2Ftok-1', routes: [{ path: '/verify-otp', element: <OtpState /> }] });
    const events = userEvent.setup();
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register?next=%2Finvitations%2Ftok-1');
    await events.type(screen.getByLabelText(/Email/), 'ravi@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    const state = await screen.findByTestId('otp-state');
    expect(JSON.parse(state.textContent ?? '')).toEqual({ email: 'ravi@example.com', next: '/invitations/tok-1' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('does not carry a redirect to another site into registration', async () => {
    mockApi({});
    setup('/login?redirect=https%3A%2F%2Fhire.example.test%2Fjobs');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register'));
  });

  it('toggles the password visibility', async () => {
    mockApi({});
    const { events } = setup();
    expect(passwordInput()).toHaveAttribute('type', 'password');
    await events.click(screen.getByRole('button', { name: 'Show password' }));
    expect(passwordInput()).toHaveAttribute('type', 'text');
    await events.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordInput()).toHaveAttribute('type', 'password');
  });

  it('has Remember me, Forgot Password, Google and Register', () => {
    mockApi({});
    setup();
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('form', { name: 'Sign in' })).toHaveAttribute('novalidate');
  });

  it('says Google sign-in is not available on a site without it, and opens no popup', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { events } = setup('/login', testConfig());
    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(await screen.findByText('Google sign-in is not available on this site')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
  });

  it('signs in with Google: popup, ID token from the main origin only, google-login, full-page navigation', async () => {
    const api = mockApi({ '/auth/google-login': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'g-jwt' } } } });
    const open = vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    const { events, assign } = setup();
    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(open).toHaveBeenCalledWith('/api/auth/google/start?intent=login', 'google-signin', 'width=500,height=600');
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data: { type: 'google-id-token', idToken: 'forged' } }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-id-token', idToken: 'id-token-1' } }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://main.example.test'));
    expect(api.calls('/auth/google-login')).toEqual([{ idToken: 'id-token-1' }]);
    expect(window.localStorage.getItem('token')).toBe('g-jwt');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    // The page is leaving: the buttons stay busy.
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  });

  it('shows the Google error from the server, or the default', async () => {
    const api = mockApi({ '/auth/google-login': [{ status: 404, body: { success: false, code: 'NOT_FOUND', message: 'No account found for this Google email. Please register first.' } }, { status: 500, body: null }] });
    vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    const { events } = setup();
    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-id-token', idToken: 'x' } }));
    expect(await screen.findByText('No account found for this Google email. Please register first.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled());
    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-id-token', idToken: 'y' } }));
    expect(await screen.findByText('Google login failed')).toBeInTheDocument();
    // The default came from the server's answer without a message, not from the popup.
    expect(api.calls('/auth/google-login')).toEqual([{ idToken: 'x' }, { idToken: 'y' }]);
  });

  it("says nothing when the person cancels at Google's consent screen, and the default for any other popup failure", async () => {
    const api = mockApi({});
    vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    const { events } = setup();
    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-error', code: 'access-denied' } }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled());
    expect(document.querySelector('.Toastify__toast')).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-error', code: 'state-mismatch' } }));
    expect(await screen.findByText('Google login failed')).toBeInTheDocument();
    // The only toast: the cancel raised none.
    expect(document.querySelectorAll('.Toastify__toast')).toHaveLength(1);
    expect(api.calls('/auth/google-login')).toHaveLength(0);
  });

  it('asks for the two-factor code, then finishes the sign-in with it', async () => {
    const api = mockApi({
      '/auth/login': { status: 200, body: { success: true, message: 'Enter the code from your authenticator app', data: { twoFactorRequired: true, challenge: 'ch-1' } } },
      '/auth/login/two-factor': [
        { status: 400, body: { success: false, code: 'BAD_USER_INPUT', message: 'Invalid code' } },
        { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'jwt-2' } } },
      ],
    });
    const { events, assign } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText(/Authentication code/);
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeInTheDocument();
    expect(window.localStorage.getItem('token')).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Code is required')).toBeInTheDocument();
    await events.type(code, '000000');
    await events.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findAllByText('Invalid code')).not.toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();

    await events.type(screen.getByLabelText(/Authentication code/), ' 123 456 ');
    await events.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://main.example.test'));
    expect(api.calls('/auth/login/two-factor')).toEqual([
      { challenge: 'ch-1', code: '000000' },
      { challenge: 'ch-1', code: '123 456' },
    ]);
    expect(window.localStorage.getItem('token')).toBe('jwt-2');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    // The page is leaving: Verify stays busy, so the code is not sent twice.
    const busy = screen.getByRole('button', { name: 'Verifying...' });
    expect(busy).toBeDisabled();
    await events.click(busy);
    expect(api.calls('/auth/login/two-factor')).toHaveLength(2);
  });

  it('goes back to the password step when the challenge has expired', async () => {
    mockApi({
      '/auth/login': { status: 200, body: { success: true, message: 'Enter the code from your authenticator app', data: { twoFactorRequired: true, challenge: 'ch-1' } } },
      '/auth/login/two-factor': { status: 410, body: { success: false, code: 'TOKEN_EXPIRED', message: 'This sign-in has expired. Please sign in again.' } },
    });
    const { events, assign } = setup();
    await events.type(screen.getByLabelText(/Email/), 'asha@example.com');
    await events.type(passwordInput(), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Sign In' }));
    await events.type(await screen.findByLabelText(/Authentication code/), '123456');
    await events.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This sign-in has expired. Please sign in again.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(passwordInput().value).toBe('');
    expect(assign).not.toHaveBeenCalled();
  });
});
