import { afterEach, describe, expect, it } from 'vitest';
import { clearQueryCache, getQueryState } from './query-cache';
import { SESSION_QUERY_KEY, SIGNED_IN_ATTRIBUTE, startSessionFromPage, type Session } from './session';
import { clearStoredToken, storeToken } from './token-storage';

afterEach(() => {
  clearQueryCache();
  clearStoredToken();
  document.documentElement.removeAttribute(SIGNED_IN_ATTRIBUTE);
});

describe('startSessionFromPage', () => {
  it('starts a visitor signed out, with nothing left to verify', () => {
    startSessionFromPage(document);
    const state = getQueryState<Session>(SESSION_QUERY_KEY);
    expect(state.status).toBe('success');
    expect(state.data).toEqual({ status: 'unauthenticated', reason: 'Session expired or unauthorized' });
  });

  it('leaves the session to the verify call when the server marked the page signed in', () => {
    document.documentElement.setAttribute(SIGNED_IN_ATTRIBUTE, '');
    startSessionFromPage(document);
    expect(getQueryState(SESSION_QUERY_KEY).status).toBe('idle');
  });

  it('leaves the session to the verify call when a token is stored', () => {
    storeToken('a-token');
    startSessionFromPage(document);
    expect(getQueryState(SESSION_QUERY_KEY).status).toBe('idle');
  });
});
