import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState } from '@/lib/session-store';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { VerifyOtpPage } from './verify-otp-page';

const state = { email: 'asha@example.com', phone: '+919876543210' };
const routes = [
  { path: '/register', element: <h1>Register route</h1> },
  { path: '/', element: <h1>Home route</h1> },
  { path: '/invitations/:token', element: <h1>Invitation route</h1> },
];
const otpInput = () => document.querySelector<HTMLInputElement>('input[name="otp"]')!;

/** Opens the page, lets the first cooldown run out and presses Resend OTP (fake timers). */
async function resendOnceTheCooldownEnds() {
  renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(60_000);
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Resend OTP' }));
    await vi.advanceTimersByTimeAsync(0);
  });
}

describe('VerifyOtpPage', () => {
  it('without an email in the navigation state, says so and goes to /register', async () => {
    mockApi({});
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes });
    expect(await screen.findByRole('heading', { name: 'Register route' })).toBeInTheDocument();
    expect(await screen.findByText('Invalid verification state. Please register again.')).toBeInTheDocument();
  });

  it('starts the 60 s resend cooldown on arrival and counts it down', async () => {
    vi.useFakeTimers();
    mockApi({ '/auth/send-otp-email': { status: 200, body: { success: true, message: 'OTP sent to your email' } } });
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state });
    const resend = screen.getByRole('button', { name: 'Resend in 60s' });
    expect(resend).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByRole('button', { name: 'Resend in 59s' })).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(59_000);
    });
    const ready = screen.getByRole('button', { name: 'Resend OTP' });
    expect(ready).toBeEnabled();
    await act(async () => {
      fireEvent.click(ready);
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Resend in 60s' })).toBeDisabled();
    expect(screen.getByText('OTP resent to your email')).toBeInTheDocument();
  });

  it('counts down the wait the server set when it refused the code asked for on the way', async () => {
    vi.useFakeTimers();
    mockApi({});
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state: { ...state, resendIn: 2992 } });
    expect(screen.getByRole('button', { name: 'Resend in 2992s' })).toBeDisabled();
    expect(screen.getByText(/Enter the last code sent to/)).toBeInTheDocument();
    expect(screen.queryByText(/^Code sent to/)).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByRole('button', { name: 'Resend in 2991s' })).toBeDisabled();
  });

  it('shows a failed resend', async () => {
    vi.useFakeTimers();
    mockApi({ '/auth/send-otp-email': { status: 500, body: { success: false } } });
    await resendOnceTheCooldownEnds();
    expect(screen.getByText('Failed to resend OTP')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeEnabled();
  });

  it("counts down the server's own cooldown when a resend is refused", async () => {
    vi.useFakeTimers();
    mockApi({
      '/auth/send-otp-email': {
        status: 429,
        body: { success: false, code: 'RATE_LIMITED', message: 'Please wait before requesting another code.' },
        headers: { 'Retry-After': '42' },
      },
    });
    await resendOnceTheCooldownEnds();
    expect(screen.getByText('Please wait before requesting another code. Try again in 42 seconds.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend in 42s' })).toBeDisabled();
  });

  it('validates the code and clears the error on edit', async () => {
    const api = mockApi({});
    const events = userEvent.setup();
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state });
    await events.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(screen.getByText('OTP is required')).toBeInTheDocument();
    // Focus goes to the field to fix, which reads out its error.
    expect(otpInput()).toHaveFocus();
    expect(otpInput()).toHaveAccessibleDescription('OTP is required');
    await events.type(otpInput(), '123');
    expect(screen.queryByText('OTP is required')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(screen.getByText('OTP must be at least 4 digits')).toBeInTheDocument();
    expect(api.calls('/auth/verify-otp-email')).toHaveLength(0);
  });

  it('shows Invalid OTP inline and as a toast', async () => {
    mockApi({ '/auth/verify-otp-email': { status: 400, body: { success: false, code: 'BAD_USER_INPUT', message: 'Invalid OTP', errors: { otp: 'Invalid OTP' } } } });
    const events = userEvent.setup();
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state });
    await events.type(otpInput(), '000000');
    await events.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findAllByText('Invalid OTP')).toHaveLength(2);
    expect(otpInput()).toHaveAttribute('aria-invalid', 'true');
  });

  it('verifies, stores the token, shows the signed-in session and goes home', async () => {
    const user = { id: 'u1', name: 'Asha', email: state.email, role: 'career', status: 'active' };
    const api = mockApi({ '/auth/verify-otp-email': { status: 200, body: { success: true, message: 'Email verified successfully!', data: { user, token: 'jwt-9' } } } });
    const events = userEvent.setup();
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state });
    await events.type(otpInput(), '123456');
    await events.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByRole('heading', { name: 'Home route' })).toBeInTheDocument();
    expect(api.calls('/auth/verify-otp-email')).toEqual([{ email: state.email, otp: '123456' }]);
    expect(window.localStorage.getItem('token')).toBe('jwt-9');
    expect(getSessionState().session).toEqual({ status: 'authenticated', user });
    expect(await screen.findByText('Email verified successfully!')).toBeInTheDocument();
  });

  it('goes to the next path of the flow (an invitation) instead of home', async () => {
    const user = { id: 'u2', name: 'Ravi', email: state.email, role: 'career', status: 'active' };
    mockApi({ '/auth/verify-otp-email': { status: 200, body: { success: true, message: 'Email verified successfully!', data: { user, token: 'jwt-7' } } } });
    const events = userEvent.setup();
    renderWithApp(<VerifyOtpPage />, { route: '/verify-otp', routes, state: { ...state, next: '/invitations/tok-1' } });
    await events.type(otpInput(), '123456');
    await events.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByRole('heading', { name: 'Invitation route' })).toBeInTheDocument();
  });
});
