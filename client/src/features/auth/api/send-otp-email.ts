import { postAuth, type AuthResult } from './auth-request';

/** POST /auth/send-otp-email: mails a fresh code (429 during the 60 s cooldown). */
export const sendOtpEmail = (apiBaseUrl: string, email: string): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, '/auth/send-otp-email', { email }, 'Failed to resend OTP');
