import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp, testConfig } from '@/test/render';
import { fullPageNavigation } from '../hooks/use-finish-sign-in';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

// LinkedIn, Microsoft and GitHub on /login and /register (API.md "More sign-in providers").
const MAIN = 'https://main.example.test';
const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'hire', status: 'active' };

function OtpState() {
  return <pre data-testid="otp-state">{JSON.stringify(useLocation().state)}</pre>;
}

function setup(page: 'login' | 'register', providers: string | undefined = 'github,linkedin') {
  const assign = vi.spyOn(fullPageNavigation, 'assign').mockImplementation(() => {});
  const open = vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
  renderWithApp(page === 'login' ? <LoginPage /> : <RegisterPage />, {
    route: `/${page}`,
    config: testConfig({ VITE_SIGN_IN_PROVIDERS: providers }),
    routes: [{ path: '/verify-otp', element: <OtpState /> }],
  });
  return { assign, open, events: userEvent.setup() };
}

/** What the server's callback page posts to this window. */
const post = (data: unknown, origin = MAIN) => act(() => void window.dispatchEvent(new MessageEvent('message', { origin, data })));

const continueButtons = () => screen.queryAllByRole('button', { name: /^Continue with / }).map((button) => button.textContent);

describe('sign-in provider buttons', () => {
  it('are shown only for the providers the server offers, in its order, on both pages', () => {
    mockApi({});
    setup('login', 'github,linkedin');
    expect(continueButtons()).toEqual(['Continue with GitHub', 'Continue with LinkedIn']);
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
  });

  it('are absent when no provider is configured, while Google stays', () => {
    mockApi({});
    setup('register', '');
    expect(continueButtons()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign up with Google' })).toBeInTheDocument();
  });

  it('each carry the provider mark', () => {
    mockApi({});
    setup('register', 'microsoft');
    const button = screen.getByRole('button', { name: 'Continue with Microsoft' });
    expect(button.querySelectorAll('svg rect')).toHaveLength(4);
  });
});

describe('signing in with a provider', () => {
  it("opens the provider's popup, believes only its callback on the main origin, and signs in with the ticket", async () => {
    const api = mockApi({ '/auth/oauth/login': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'gh-jwt' } } } });
    const { events, open, assign } = setup('login');
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    expect(open).toHaveBeenCalledWith('/api/auth/github/start?intent=login', 'github-signin', 'width=500,height=600');
    expect(screen.getByRole('button', { name: 'Continue with LinkedIn' })).toBeDisabled();
    post({ type: 'oauth-result', provider: 'github', ticket: 'forged' }, 'https://evil.example');
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'another-popup' });
    post({ type: 'oauth-result', provider: 'github', ticket: 'ticket-1' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith(MAIN));
    expect(api.calls('/auth/oauth/login')).toEqual([{ ticket: 'ticket-1' }]);
    expect(window.localStorage.getItem('token')).toBe('gh-jwt');
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    // The page is leaving: the buttons stay busy, so a second click opens no second sign-in.
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    expect(open).toHaveBeenCalledOnce();
  });

  it("shows the server's message for an unknown email and stays", async () => {
    const message = 'No account found for this LinkedIn email. Please register first.';
    mockApi({ '/auth/oauth/login': { status: 404, body: { success: false, code: 'NOT_FOUND', message } } });
    const { events, assign } = setup('login');
    await events.click(screen.getByRole('button', { name: 'Continue with LinkedIn' }));
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'ticket-2' });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Continue with LinkedIn' })).toBeEnabled();
  });

  it("toasts the provider's failure, but nothing when the person cancelled there", async () => {
    const api = mockApi({});
    const { events } = setup('login');
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    post({ type: 'oauth-error', provider: 'github', code: 'access-denied' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeEnabled());
    expect(document.querySelector('.Toastify__toast')).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    post({ type: 'oauth-error', provider: 'github', code: 'exchange-failed' });
    expect(await screen.findByText('GitHub sign-in failed. Please try again.')).toBeInTheDocument();
    expect(api.calls('/auth/oauth/login')).toHaveLength(0);
  });

  it("asks for the two-factor code when the account has it on, as Google's sign-in does", async () => {
    mockApi({ '/auth/oauth/login': { status: 200, body: { success: true, message: 'Enter the code from your authenticator app', data: { twoFactorRequired: true, challenge: 'ch-9' } } } });
    const { events, assign } = setup('login');
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    post({ type: 'oauth-result', provider: 'github', ticket: 'ticket-3' });
    expect(await screen.findByLabelText(/Authentication code/)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('registering with a provider', () => {
  it('passes the chosen role, and a vouched email signs in and opens that platform', async () => {
    const api = mockApi({ '/auth/oauth/register': { status: 201, body: { success: true, message: 'Registered successfully', data: { user, token: 'new-jwt' } } } });
    const { events, open, assign } = setup('register');
    await events.click(screen.getByRole('radio', { name: 'Hire' }));
    await events.click(screen.getByRole('button', { name: 'Continue with LinkedIn' }));
    expect(open).toHaveBeenCalledWith('/api/auth/linkedin/start?intent=register&role=hire', 'linkedin-signin', 'width=500,height=600');
    expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'ticket-4' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hire.example.test'));
    expect(api.calls('/auth/oauth/register')).toEqual([{ ticket: 'ticket-4', role: 'hire' }]);
    expect(window.localStorage.getItem('token')).toBe('new-jwt');
  });

  it('an email the provider did not vouch for goes to the OTP screen, as a password registration does', async () => {
    const pending = { ...user, email: 'octo@example.com', status: 'pending' };
    const api = mockApi({
      '/auth/oauth/register': { status: 201, body: { success: true, message: 'Registered successfully', data: { user: pending } } },
      '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } },
    });
    const { events, assign } = setup('register');
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    post({ type: 'oauth-result', provider: 'github', ticket: 'ticket-5' });
    expect(await screen.findByTestId('otp-state')).toHaveTextContent(JSON.stringify({ email: 'octo@example.com' }));
    expect(api.calls('/auth/oauth/register')).toEqual([{ ticket: 'ticket-5', role: 'career' }]);
    expect(api.calls('/auth/send-otp-email')).toEqual([{ email: 'octo@example.com' }]);
    expect(await screen.findByText('Registered successfully')).toBeInTheDocument();
    expect(await screen.findByText('OTP sent to your email')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('a known identity is signed in instead (200)', async () => {
    mockApi({ '/auth/oauth/register': { status: 200, body: { success: true, message: 'Logged in successfully', data: { user, token: 'old-jwt' } } } });
    const { events, assign } = setup('register');
    await events.click(screen.getByRole('button', { name: 'Continue with GitHub' }));
    post({ type: 'oauth-result', provider: 'github', ticket: 'ticket-6' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://career.example.test'));
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
  });
});
