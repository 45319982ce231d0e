import { postAuth, type AuthResult } from './auth-request';

/** POST /auth/reset-password/{token}. */
export const resetPassword = (apiBaseUrl: string, token: string, password: string): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, `/auth/reset-password/${encodeURIComponent(token)}`, { password }, 'Failed to reset password');
