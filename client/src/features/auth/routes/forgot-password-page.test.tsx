import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { ForgotPasswordPage } from './forgot-password-page';

const emailInput = () => document.querySelector<HTMLInputElement>('input[name="email"]')!;

describe('ForgotPasswordPage', () => {
  it('validates the email and clears the error on edit', async () => {
    const api = mockApi({});
    const events = userEvent.setup();
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password' });
    await events.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    // Focus goes to the field to fix, which reads out its error.
    expect(emailInput()).toHaveFocus();
    expect(emailInput()).toHaveAccessibleDescription('Email is required');
    await events.type(emailInput(), 'x');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    expect(emailInput()).toHaveFocus();
    expect(api.calls('/auth/forgot-password')).toHaveLength(0);
  });

  it('shows Reset Link Sent! with the email and a way back to sign in', async () => {
    const api = mockApi({
      '/auth/forgot-password': { status: 200, body: { success: true, message: 'If an account exists for this email, a reset link has been sent.' } },
    });
    const events = userEvent.setup();
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password' });
    await events.type(emailInput(), 'asha@example.com');
    await events.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('heading', { name: 'Reset Link Sent!' })).toBeInTheDocument();
    expect(screen.getByText('asha@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/login');
    expect(api.calls('/auth/forgot-password')).toEqual([{ email: 'asha@example.com' }]);
  });

  it('shows a failure inline on the email field, with the server message when there is one', async () => {
    mockApi({ '/auth/forgot-password': [{ status: 500, body: { success: false } }, { status: 429, body: { success: false, code: 'RATE_LIMITED', message: 'Too many requests' } }] });
    const events = userEvent.setup();
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password' });
    await events.type(emailInput(), 'asha@example.com');
    await events.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Failed to send reset link')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    await events.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Too many requests')).toBeInTheDocument();
  });
});
