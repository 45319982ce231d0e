import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import { failureMessage, postAuth, type AuthResult } from './auth-request';

/** POST /auth/send-otp-email: mails a fresh code (429 during the 60 s cooldown). */
export const sendOtpEmail = (apiBaseUrl: string, email: string): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, '/auth/send-otp-email', { email }, 'Failed to resend OTP');

/**
 * Asks for the code on the way to /verify-otp, and says how it went in a toast: the wait the
 * server set when it refused (its Retry-After, for the screen's countdown), else undefined.
 */
export async function sendCodeOnTheWay(apiBaseUrl: string, email: string): Promise<number | undefined> {
  try {
    const sent = await sendOtpEmail(apiBaseUrl, email);
    accountToast.success(sent.message || 'OTP sent to your email');
    return undefined;
  } catch (error) {
    accountToast.error(failureMessage(error, 'Failed to resend OTP'));
    return error instanceof ApiError ? error.retryAfterSeconds : undefined;
  }
}
