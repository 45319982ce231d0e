import { postAuth, type AuthResult } from './auth-request';

/** POST /auth/forgot-password: the same answer whether or not the account exists. */
export const forgotPassword = (apiBaseUrl: string, email: string): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, '/auth/forgot-password', { email }, 'Failed to send reset link');
