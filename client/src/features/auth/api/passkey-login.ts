import { apiRequest, toApiError } from '@/lib/api-client';
import type { CredentialJSON, RequestOptionsJSON } from '@/lib/webauthn';
import { postAuth, type AuthResult, type SignedInData } from './auth-request';

export type PasskeyLoginStart = { options: RequestOptionsJSON; challenge: string };

/**
 * POST /auth/passkeys/login/start: fresh request options for one attempt and the handle of
 * its challenge. `signal` lets the login page drop a waiting autofill request.
 */
export async function startPasskeyLogin(apiBaseUrl: string, signal?: AbortSignal): Promise<PasskeyLoginStart> {
  const response = await apiRequest<PasskeyLoginStart>(apiBaseUrl, '/auth/passkeys/login/start', { method: 'POST', body: {}, ...(signal ? { signal } : {}) });
  if (response.status === 200 && response.body?.success === true && response.body.data) return response.body.data;
  throw toApiError(response, 'Login failed');
}

/** POST /auth/passkeys/login/finish: a session, as after a password (a passkey is both factors). */
export const finishPasskeyLogin = (apiBaseUrl: string, input: { challenge: string; credential: CredentialJSON }): Promise<AuthResult<SignedInData>> =>
  postAuth<SignedInData>(apiBaseUrl, '/auth/passkeys/login/finish', input, 'Login failed');
