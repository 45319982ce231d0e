import { useConfig } from './config-context';
import { getQueryState, invalidateQuery, setQueryData, useCachedQuery, type QueryState } from './query-cache';
import { getStoredToken } from './token-storage';

/** SPEC.md section 9: verify data is stale after 600 s. */
export const SESSION_STALE_TIME_MS = 600_000;
export const SESSION_QUERY_KEY = 'auth/verify';
export const SESSION_EXPIRED_MESSAGE = 'Session expired or unauthorized';

export type SessionUser = {
  id: string;
  name?: string | null;
  email?: string | null;
  role?: string | null;
  status?: string | null;
  /** Only the theme is read here (it colours the whole site); the profile reads the rest. */
  preferences?: { theme?: string | null } | null;
};

export type Session =
  | { status: 'authenticated'; user: SessionUser }
  | { status: 'unauthenticated'; reason: string };

/** GET /auth/verify: 200 with a user is signed in; 401/403 is signed out. */
export async function verifySession(apiBaseUrl: string): Promise<Session> {
  // Loaded on first use: a visitor's page never makes the call (see startSessionFromPage).
  const { apiRequest, toApiError } = await import('./api-client');
  const response = await apiRequest<{ user?: SessionUser }>(apiBaseUrl, '/auth/verify');
  if (response.status === 401 || response.status === 403) {
    return { status: 'unauthenticated', reason: SESSION_EXPIRED_MESSAGE };
  }
  const user = response.body?.data?.user;
  if (response.status >= 200 && response.status < 300 && response.body?.success === true && user) {
    return { status: 'authenticated', user };
  }
  throw toApiError(response, 'Something went wrong');
}

export type SessionView =
  | { state: 'loading' }
  | { state: 'signed-in'; user: SessionUser }
  | { state: 'signed-out' };

/**
 * The prerendered pages show the header of a visitor: most page loads are, and it is what
 * search engines should see.
 */
const PRERENDERED_SESSION: QueryState<Session> = {
  status: 'success',
  data: { status: 'unauthenticated', reason: SESSION_EXPIRED_MESSAGE },
  error: undefined,
  updatedAt: 0,
};

/**
 * The server marks a page it serves to a browser holding a session cookie with
 * `<html data-signed-in>` (the cookie itself is HttpOnly). Without that mark and without a
 * stored token there is no session to verify: the verify call could only answer 401, so the
 * page starts signed out instead of asking. With it, the header starts at Loading as usual.
 */
export function startSessionFromPage(doc: Document): void {
  if (doc.documentElement.hasAttribute(SIGNED_IN_ATTRIBUTE) || getStoredToken() !== null) return;
  setQueryData<Session>(SESSION_QUERY_KEY, { status: 'unauthenticated', reason: SESSION_EXPIRED_MESSAGE });
}

export const SIGNED_IN_ATTRIBUTE = 'data-signed-in';

/** Whether the verify call has answered (or was not needed) since the page loaded. */
export const isSessionSettled = (): boolean => {
  const { status } = getQueryState<Session>(SESSION_QUERY_KEY);
  return status === 'success' || status === 'error';
};

/** The header's three displays; a failed verify (server down) counts as signed out. */
export function useSession(): SessionView {
  const { apiBaseUrl } = useConfig();
  const query = useCachedQuery(SESSION_QUERY_KEY, () => verifySession(apiBaseUrl), {
    staleTime: SESSION_STALE_TIME_MS,
    prerendered: PRERENDERED_SESSION,
  });
  if (query.data?.status === 'authenticated') return { state: 'signed-in', user: query.data.user };
  if (query.isLoading) return { state: 'loading' };
  return { state: 'signed-out' };
}

export function markSignedOut(): void {
  setQueryData<Session>(SESSION_QUERY_KEY, { status: 'unauthenticated', reason: 'Logged out' });
}

export function invalidateSession(): void {
  invalidateQuery(SESSION_QUERY_KEY);
}

/** Shows the signed-in header at once after login, OTP verification or a profile change. */
export function markSignedIn(user: SessionUser): void {
  setQueryData<Session>(SESSION_QUERY_KEY, { status: 'authenticated', user });
}
