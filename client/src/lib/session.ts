import { useConfig } from './config-context';
import { getSessionState, setSession, useSessionState, type Session, type SessionState, type SessionUser } from './session-store';
import { getStoredToken } from './token-storage';

const SESSION_EXPIRED_MESSAGE = 'Session expired or unauthorized';

/** GET /auth/verify: 200 with a user is signed in; 401/403 is signed out. */
async function verifySession(apiBaseUrl: string): Promise<Session> {
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
const PRERENDERED_SESSION: SessionState = {
  session: { status: 'unauthenticated', reason: SESSION_EXPIRED_MESSAGE },
  settled: true,
  checkedAt: 0,
};

export const SIGNED_IN_ATTRIBUTE = 'data-signed-in';

/**
 * The server marks a page it serves to a browser holding a session cookie with
 * `<html data-signed-in>` (the cookie itself is HttpOnly). Without that mark and without a
 * stored token there is no session to verify: the verify call could only answer 401, so the
 * page starts signed out instead of asking. With it, the header starts at Loading as usual.
 */
export function startSessionFromPage(doc: Document): void {
  if (doc.documentElement.hasAttribute(SIGNED_IN_ATTRIBUTE) || getStoredToken() !== null) return;
  setSession({ status: 'unauthenticated', reason: SESSION_EXPIRED_MESSAGE });
}

/** Whether the verify call has answered (or was not needed) since the page loaded. */
export const isSessionSettled = (): boolean => getSessionState().settled;

/** The header's three displays; a failed verify (server down) counts as signed out. */
export function useSession(): SessionView {
  const { apiBaseUrl } = useConfig();
  const { session, settled } = useSessionState(() => verifySession(apiBaseUrl), PRERENDERED_SESSION);
  if (session?.status === 'authenticated') return { state: 'signed-in', user: session.user };
  if (!settled) return { state: 'loading' };
  return { state: 'signed-out' };
}

export function markSignedOut(): void {
  setSession({ status: 'unauthenticated', reason: 'Logged out' });
}

/** Shows the signed-in header at once after login, OTP verification or a profile change. */
export function markSignedIn(user: SessionUser): void {
  setSession({ status: 'authenticated', user });
}
