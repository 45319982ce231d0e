import { postAuth, type AuthResult, type SignInStepData } from './auth-request';

/** POST /auth/magic-link: the same answer whether or not the account exists. */
export const requestMagicLink = (apiBaseUrl: string, email: string): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, '/auth/magic-link', { email }, 'Failed to send the sign-in link');

/** POST /auth/magic-link/{token}: a session, or the two-factor challenge. */
export const signInWithMagicLink = (apiBaseUrl: string, token: string): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, `/auth/magic-link/${encodeURIComponent(token)}`, {}, 'Sign-in failed');
