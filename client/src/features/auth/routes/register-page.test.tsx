import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp, testConfig } from '@/test/render';
import { RegisterPage } from './register-page';

function OtpRoute() {
  return <pre data-testid="otp-state">{JSON.stringify(useLocation().state)}</pre>;
}

function setup() {
  // The site as deployed with Google sign-in set up.
  const config = testConfig({ VITE_GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' });
  renderWithApp(<RegisterPage />, { route: '/register', config, routes: [{ path: '/verify-otp', element: <OtpRoute /> }] });
  return userEvent.setup();
}

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

describe('RegisterPage', () => {
  it('names the name field after the role and its required error too', async () => {
    mockApi({});
    const events = setup();
    expect(screen.getByLabelText(/^Full Name/)).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Full Name is required')).toBeInTheDocument();
    // Focus goes to the first field to fix, which reads out its error.
    expect(input('name')).toHaveFocus();
    expect(input('name')).toHaveAccessibleDescription('Full Name is required');
    await events.click(screen.getByRole('radio', { name: 'Institute' }));
    expect(screen.getByLabelText(/^Institute Name/)).toBeInTheDocument();
    await events.click(screen.getByRole('radio', { name: 'Hire' }));
    await events.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Organization Name is required')).toBeInTheDocument();
    for (const message of ['Email is required', 'Phone number is required', 'Password is required']) expect(screen.getByText(message)).toBeInTheDocument();
  });

  it('checks code, phone and password and clears each error on edit, the others staying', async () => {
    const api = mockApi({});
    const events = setup();
    await events.clear(input('countryCode'));
    await events.type(input('countryCode'), '91');
    await events.type(input('phone'), '123');
    await events.type(input('password'), '12345');
    await events.click(screen.getByRole('button', { name: 'Register' }));
    const name = 'Full Name is required';
    const email = 'Email is required';
    const code = 'Invalid code (e.g., +91)';
    const phone = 'Enter 6-14 digits';
    const password = 'Minimum 6 characters';
    const shown = () => [name, email, code, phone, password].filter((message) => screen.queryByText(message) !== null);
    expect(shown()).toEqual([name, email, code, phone, password]);
    expect(input('countryCode')).toHaveAccessibleDescription(code);

    await events.type(input('phone'), '456');
    expect(shown()).toEqual([name, email, code, password]);
    await events.type(input('countryCode'), '1');
    expect(shown()).toEqual([name, email, password]);
    expect(input('countryCode')).not.toHaveAttribute('aria-invalid');
    await events.type(input('password'), '6');
    expect(shown()).toEqual([name, email]);
    await events.type(input('name'), 'Riya');
    expect(shown()).toEqual([email]);
    expect(api.calls('/auth/register')).toHaveLength(0);
  });

  it('registers with the joined phone, asks for a code and opens /verify-otp with email and phone', async () => {
    const api = mockApi({
      '/auth/register': { status: 201, body: { success: true, message: 'Registered successfully', data: { user: { id: 'u1' } } } },
      '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } },
    });
    const events = setup();
    await events.click(screen.getByRole('radio', { name: 'Institute' }));
    await events.type(input('name'), 'Sunrise College');
    await events.type(input('email'), 'admin@sunrise.edu');
    await events.type(input('phone'), '9876543210');
    await events.type(input('password'), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Register' }));
    const state = await screen.findByTestId('otp-state');
    expect(JSON.parse(state.textContent ?? '')).toEqual({ email: 'admin@sunrise.edu', phone: '+919876543210' });
    expect(api.calls('/auth/register')).toEqual([
      { name: 'Sunrise College', email: 'admin@sunrise.edu', countryCode: '+91', phone: '+919876543210', password: 'secret1', role: 'campus' },
    ]);
    expect(api.calls('/auth/send-otp-email')).toEqual([{ email: 'admin@sunrise.edu' }]);
    expect(await screen.findByText('Registered successfully')).toBeInTheDocument();
    expect(await screen.findByText('OTP sent to your email')).toBeInTheDocument();
  });

  it('prefills the invited address and carries ?next= to /verify-otp and to the sign-in link', async () => {
    const api = mockApi({
      '/auth/register': { status: 201, body: { success: true, message: 'Registered successfully', data: { user: { id: 'u2' } } } },
      '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } },
    });
    renderWithApp(<RegisterPage />, {
      route: '/register?email=ravi%40example.com&next=%2Finvitations%2Ftok-1',
      routes: [{ path: '/verify-otp', element: <OtpRoute /> }],
    });
    const events = userEvent.setup();
    await waitFor(() => expect(input('email')).toHaveValue('ravi@example.com'));
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login?redirect=%2Finvitations%2Ftok-1');
    await events.type(input('name'), 'Ravi Kumar');
    await events.type(input('phone'), '9876543210');
    await events.type(input('password'), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Register' }));
    const state = await screen.findByTestId('otp-state');
    expect(JSON.parse(state.textContent ?? '')).toEqual({ email: 'ravi@example.com', phone: '+919876543210', next: '/invitations/tok-1' });
    expect(api.calls('/auth/register')[0]).toMatchObject({ email: 'ravi@example.com' });
  });

  it('ignores a ?next= that leaves the site', async () => {
    mockApi({});
    renderWithApp(<RegisterPage />, { route: '/register?next=%2F%2Fevil.example', routes: [] });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login'));
  });

  it('shows the server field errors and the conflict message', async () => {
    mockApi({
      '/auth/register': { status: 409, body: { success: false, code: 'CONFLICT', message: 'An account with this email already exists', errors: { email: 'An account with this email already exists' } } },
    });
    const events = setup();
    await events.type(input('name'), 'Asha');
    await events.type(input('email'), 'asha@example.com');
    await events.type(input('phone'), '9876543210');
    await events.type(input('password'), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(screen.getAllByText('An account with this email already exists').length).toBeGreaterThanOrEqual(2));
    expect(input('email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('falls back to "Registration failed" when the server gives no message', async () => {
    mockApi({ '/auth/register': { status: 500, body: null } });
    const events = setup();
    await events.type(input('name'), 'Asha');
    await events.type(input('email'), 'asha@example.com');
    await events.type(input('phone'), '9876543210');
    await events.type(input('password'), 'secret1');
    await events.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('shows the Google registration error from the server, or the default', async () => {
    const api = mockApi({
      '/auth/google-register': [
        { status: 409, body: { success: false, code: 'CONFLICT', message: 'An account with this email already exists' } },
        { status: 500, body: null },
      ],
    });
    vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    const post = (idToken: string) => window.dispatchEvent(new MessageEvent('message', { origin: 'https://main.example.test', data: { type: 'google-id-token', idToken } }));
    const events = setup();
    const google = screen.getByRole('button', { name: 'Sign up with Google' });
    await events.click(google);
    post('x');
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
    await waitFor(() => expect(google).toBeEnabled());
    await events.click(google);
    post('y');
    expect(await screen.findByText('Google registration failed')).toBeInTheDocument();
    expect(api.calls('/auth/google-register')).toEqual([
      { idToken: 'x', role: 'career' },
      { idToken: 'y', role: 'career' },
    ]);
  });

  it('opens the Google popup for the chosen role, and says so when it is blocked', async () => {
    mockApi({});
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const events = setup();
    await events.click(screen.getByRole('radio', { name: 'Hire' }));
    await events.click(screen.getByRole('button', { name: 'Sign up with Google' }));
    expect(open).toHaveBeenCalledWith('/api/auth/google/start?intent=register&role=hire', 'google-signin', 'width=500,height=600');
    expect(await screen.findByText(/window was blocked/)).toBeInTheDocument();
  });
});
