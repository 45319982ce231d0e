import { apiRequest, toApiError } from '@/lib/api-client';
import { postAuth, type AuthResult, type SignInStepData } from './auth-request';

/**
 * POST /auth/magic-link: the same answer whether or not the account exists. `redirect`, a page
 * of this site, rides in the mailed link and is opened once signed in.
 */
export const requestMagicLink = (apiBaseUrl: string, email: string, redirect?: string | null): Promise<AuthResult<unknown>> =>
  postAuth<unknown>(apiBaseUrl, '/auth/magic-link', redirect ? { email, redirect } : { email }, 'Failed to send the sign-in link');

/**
 * GET /auth/magic-link/{token}: the email of the account the link opens, without using it; or
 * throws with the answer the link would get (invalid, expired, suspended).
 */
export async function showMagicLink(apiBaseUrl: string, token: string, signal?: AbortSignal): Promise<string> {
  const response = await apiRequest<{ email: string }>(apiBaseUrl, `/auth/magic-link/${encodeURIComponent(token)}`, { signal });
  const email = response.body?.success === true ? response.body.data?.email : undefined;
  if (response.status === 200 && email) return email;
  throw toApiError(response, 'Sign-in failed');
}

/** POST /auth/magic-link/{token}: a session, or the two-factor challenge. */
export const signInWithMagicLink = (apiBaseUrl: string, token: string): Promise<AuthResult<SignInStepData>> =>
  postAuth<SignInStepData>(apiBaseUrl, `/auth/magic-link/${encodeURIComponent(token)}`, {}, 'Sign-in failed');
