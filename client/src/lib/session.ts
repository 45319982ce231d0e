import { apiRequest, toApiError } from './api-client';
import { useConfig } from './config-context';
import { invalidateQuery, setQueryData, useCachedQuery } from './query-cache';

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

/** The header's three displays; a failed verify (server down) counts as signed out. */
export function useSession(): SessionView {
  const { apiBaseUrl } = useConfig();
  const query = useCachedQuery(SESSION_QUERY_KEY, () => verifySession(apiBaseUrl), {
    staleTime: SESSION_STALE_TIME_MS,
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
