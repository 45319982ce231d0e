import { postAuth, type AuthResult, type SignedInData } from './auth-request';

/** POST /auth/verify-otp-email: verifies the email and signs in. */
export const verifyOtpEmail = (apiBaseUrl: string, input: { email: string; otp: string }): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/verify-otp-email', input, 'Invalid OTP');
