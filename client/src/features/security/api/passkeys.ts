import { ApiError, apiRequest, toApiError, type RequestOptions } from '@/lib/api-client';
import type { CreationOptionsJSON, CredentialJSON } from '@/lib/webauthn';

/** One passkey of the signed-in person (API.md "Passwordless sign-in"). */
export type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

export type PasskeyResult<T> = { message: string; data: T };

const FALLBACK_MESSAGE = 'Something went wrong';

/** Sends one passkey call; the server's message and data, or an ApiError with its message. */
async function passkeyRequest<T>(apiBaseUrl: string, path: string, options: Pick<RequestOptions, 'method' | 'body' | 'signal'> = {}): Promise<PasskeyResult<T>> {
  const response = await apiRequest<T>(apiBaseUrl, path, options);
  const ok = response.status >= 200 && response.status < 300;
  if (ok && response.body?.success === true) return { message: response.body.message?.trim() ?? '', data: response.body.data as T };
  throw toApiError(response, FALLBACK_MESSAGE);
}

const passkeyPath = (id: string) => `/users/passkeys/${encodeURIComponent(id)}`;

/** GET /users/passkeys: newest first. */
export const listPasskeys = (apiBaseUrl: string, signal?: AbortSignal) =>
  passkeyRequest<{ items: Passkey[] }>(apiBaseUrl, '/users/passkeys', signal ? { signal } : {});

/** POST /auth/passkeys/register/start: the creation options for the browser. */
export const startPasskeyRegistration = (apiBaseUrl: string) =>
  passkeyRequest<{ options: CreationOptionsJSON }>(apiBaseUrl, '/auth/passkeys/register/start', { method: 'POST', body: {} });

/** POST /auth/passkeys/register/finish: the new credential and the name to give it. */
export const finishPasskeyRegistration = (apiBaseUrl: string, input: { name: string; credential: CredentialJSON }) =>
  passkeyRequest<{ passkey: Passkey }>(apiBaseUrl, '/auth/passkeys/register/finish', { method: 'POST', body: input });

/** PUT /users/passkeys/{id}. */
export const renamePasskey = (apiBaseUrl: string, id: string, name: string) =>
  passkeyRequest<{ passkey: Passkey }>(apiBaseUrl, passkeyPath(id), { method: 'PUT', body: { name } });

/** DELETE /users/passkeys/{id}. */
export const removePasskey = (apiBaseUrl: string, id: string) => passkeyRequest<unknown>(apiBaseUrl, passkeyPath(id), { method: 'DELETE' });

export const statusOf = (error: unknown): number | undefined => (error instanceof ApiError ? error.status : undefined);
export const fieldErrorsOf = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fieldErrors : {});
