import { useEffect, useRef, useSyncExternalStore } from 'react';
import { onReturn } from './on-return';

export type SessionUser = {
  id: string;
  name?: string | null;
  email?: string | null;
  role?: string | null;
  status?: string | null;
  /** Which "Confirm it's you" to offer (password, or an authenticator code too). */
  twoFactorEnabled?: boolean | null;
  /** Only the theme is read here (it colours the whole site); the profile reads the rest. */
  preferences?: { theme?: string | null } | null;
};

export type Session =
  | { status: 'authenticated'; user: SessionUser }
  | { status: 'unauthenticated'; reason: string };

/**
 * What the page knows of the session. `session` is undefined until the first check answers
 * and after a check that failed; `settled` once a check has answered (or none was needed);
 * `checkedAt` (ms since the epoch, 0 for never) dates it for the staleness rule.
 */
export type SessionState = { session: Session | undefined; settled: boolean; checkedAt: number };

/** SPEC.md section 9: the verify answer is stale after 600 s; focus and reconnect then check again. */
export const SESSION_STALE_TIME_MS = 600_000;

const UNKNOWN: SessionState = { session: undefined, settled: false, checkedAt: 0 };

let state = UNKNOWN;
let inFlight: Promise<void> | undefined;
/** Bumped whenever the session is set or forgotten: a check started before then answers too late. */
let generation = 0;
/** The last known account: a user id, null when signed out, undefined before anything is known. */
let account: string | null | undefined;
const listeners = new Set<() => void>();
const accountListeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  if (next.session) {
    const nextAccount = next.session.status === 'authenticated' ? next.session.user.id : null;
    const changed = account !== undefined && account !== nextAccount;
    account = nextAccount;
    if (changed) accountListeners.forEach((listener) => listener());
  }
  listeners.forEach((listener) => listener());
}

export const getSessionState = (): SessionState => state;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Calls `listener` whenever the signed-in account changes: a sign-in, a sign-out (or an
 * expired session), another account, or a reset. Whatever was cached for one account must
 * not reach the next. The first answer of the page's first check is no change.
 */
export function onAccountChange(listener: () => void): () => void {
  accountListeners.add(listener);
  return () => accountListeners.delete(listener);
}

/** Runs `check` unless a check is already running, in which case every caller shares that one. */
function loadSession(check: () => Promise<Session>): Promise<void> {
  if (inFlight) return inFlight;
  const started = generation;
  // A known session stays on screen while it is checked again; after a failed check the
  // header goes back to Loading, as at the start.
  if (!state.session && state.settled) setState(UNKNOWN);
  const settle = (session: Session | undefined) => {
    if (generation === started) setState({ session, settled: true, checkedAt: Date.now() });
  };
  const running = check()
    .then(settle, () => settle(undefined))
    .finally(() => {
      if (inFlight === running) inFlight = undefined;
    });
  inFlight = running;
  return running;
}

/** Records a session known without asking: a sign-in, a sign-out, a page that has none. */
export function setSession(session: Session): void {
  generation += 1;
  inFlight = undefined;
  setState({ session, settled: true, checkedAt: Date.now() });
}

/**
 * Forgets everything: each prerendered page and each test starts afresh. Components are not
 * told (none is on screen then); what is cached for an account (onAccountChange) is dropped.
 */
export function resetSessionStore(): void {
  generation += 1;
  inFlight = undefined;
  account = undefined;
  state = UNKNOWN;
  accountListeners.forEach((listener) => listener());
}

const isStale = ({ checkedAt }: SessionState): boolean => checkedAt === 0 || Date.now() - checkedAt >= SESSION_STALE_TIME_MS;

/**
 * The session, kept fresh: checked with `check` when nothing is known or what is known is
 * stale, at mount and again on window focus or reconnect. `prerendered` is what the build's
 * HTML showed: the server render and the browser's first render (the one that adopts that
 * HTML) use it, then the store's state takes over.
 */
export function useSessionState(check: () => Promise<Session>, prerendered: SessionState): SessionState {
  const checkRef = useRef(check);
  checkRef.current = check;
  const current = useSyncExternalStore(subscribe, getSessionState, () => prerendered);

  useEffect(
    () =>
      onReturn(() => {
        if (isStale(state)) void loadSession(() => checkRef.current());
      }),
    [],
  );

  return current;
}
