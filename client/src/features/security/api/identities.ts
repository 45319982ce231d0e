import { ApiError, apiRequest, toApiError, type RequestOptions } from '@/lib/api-client';
import type { IdentityProvider } from '@/lib/sign-in-providers';

/** One provider account connected to the signed-in person (API.md "More sign-in providers"). */
export type Identity = { provider: IdentityProvider; email: string; linkedAt: string };

export type IdentityResult<T> = { message: string; data: T };

const FALLBACK_MESSAGE = 'Something went wrong';

/** Sends one identity call; the server's message and data, or an ApiError with its message. */
async function identityRequest<T>(apiBaseUrl: string, path: string, options: Pick<RequestOptions, 'method' | 'body' | 'signal'> = {}): Promise<IdentityResult<T>> {
  const response = await apiRequest<T>(apiBaseUrl, path, options);
  const ok = response.status >= 200 && response.status < 300;
  if (ok && response.body?.success === true) return { message: response.body.message?.trim() ?? '', data: response.body.data as T };
  throw toApiError(response, FALLBACK_MESSAGE);
}

/** GET /users/identities: one item per connected provider, Google included. */
export const listIdentities = (apiBaseUrl: string, signal?: AbortSignal) =>
  identityRequest<{ items: Identity[] }>(apiBaseUrl, '/users/identities', signal ? { signal } : {});

/** POST /auth/oauth/link with the ticket from the provider's popup: 200 "{Provider} account connected", 409 when it is another account's. */
export const linkIdentity = (apiBaseUrl: string, ticket: string) => identityRequest<unknown>(apiBaseUrl, '/auth/oauth/link', { method: 'POST', body: { ticket } });

/** DELETE /users/identities/{provider}: 409 when it is the account's last way in. */
export const disconnectIdentity = (apiBaseUrl: string, provider: IdentityProvider) =>
  identityRequest<unknown>(apiBaseUrl, `/users/identities/${encodeURIComponent(provider)}`, { method: 'DELETE' });

export const identityStatusOf = (error: unknown): number | undefined => (error instanceof ApiError ? error.status : undefined);

