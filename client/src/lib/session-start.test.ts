import { afterEach, describe, expect, it } from 'vitest';
import { isSessionSettled, SIGNED_IN_ATTRIBUTE, startSessionFromPage } from './session';
import { getSessionState } from './session-store';
import { clearStoredToken, storeToken } from './token-storage';

afterEach(() => {
  clearStoredToken();
  document.documentElement.removeAttribute(SIGNED_IN_ATTRIBUTE);
});

describe('startSessionFromPage', () => {
  it('starts a visitor signed out, with nothing left to verify', () => {
    startSessionFromPage(document);
    expect(isSessionSettled()).toBe(true);
    expect(getSessionState().session).toEqual({ status: 'unauthenticated', reason: 'Session expired or unauthorized' });
  });

  it('leaves the session to the verify call when the server marked the page signed in', () => {
    document.documentElement.setAttribute(SIGNED_IN_ATTRIBUTE, '');
    startSessionFromPage(document);
    expect(isSessionSettled()).toBe(false);
    expect(getSessionState().session).toBeUndefined();
  });

  it('leaves the session to the verify call when a token is stored', () => {
    storeToken('a-token');
    startSessionFromPage(document);
    expect(isSessionSettled()).toBe(false);
    expect(getSessionState().session).toBeUndefined();
  });
});
