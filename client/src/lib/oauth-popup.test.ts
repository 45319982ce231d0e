import { afterEach, describe, expect, it, vi } from 'vitest';
import { oauthPopupErrorMessage, oauthStartUrl, openOAuthPopup, readOAuthMessage } from './oauth-popup';

const TRUSTED = 'https://main.example.test';

function fakeWindow(popup: { closed: boolean } | null) {
  const target = new EventTarget();
  const open = vi.fn(() => popup);
  const win = Object.assign(target, { open }) as unknown as Window;
  const post = (data: unknown, origin: string) => target.dispatchEvent(new MessageEvent('message', { data, origin }));
  return { win, open, post };
}

const message = (data: unknown, origin = TRUSTED) => new MessageEvent('message', { data, origin });

afterEach(() => vi.useRealTimers());

describe('oauthStartUrl', () => {
  it("asks the server to start the provider's login, register (with the role) or link flow", () => {
    expect(oauthStartUrl('/api', 'github', { intent: 'login' })).toBe('/api/auth/github/start?intent=login');
    expect(oauthStartUrl('/api', 'linkedin', { intent: 'register', role: 'campus' })).toBe('/api/auth/linkedin/start?intent=register&role=campus');
    expect(oauthStartUrl('/api', 'microsoft', { intent: 'link' })).toBe('/api/auth/microsoft/start?intent=link');
  });
});

describe('readOAuthMessage', () => {
  const filter = { trustedOrigin: TRUSTED, provider: 'github' } as const;

  it("takes the ticket from the provider's callback on the main platform's origin", () => {
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'github', ticket: 't-1' }), filter)).toEqual({ ok: true, value: 't-1' });
  });

  it('takes the error code the callback reports', () => {
    expect(readOAuthMessage(message({ type: 'oauth-error', provider: 'github', code: 'state-mismatch' }), filter)).toEqual({ ok: false, code: 'state-mismatch' });
    expect(readOAuthMessage(message({ type: 'oauth-error', provider: 'github' }), filter)).toEqual({ ok: false, code: 'unknown' });
  });

  it('ignores a message from another origin, even one that looks right', () => {
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'github', ticket: 'forged' }, 'https://evil.example'), filter)).toBeNull();
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'github', ticket: 'forged' }, 'https://hire.example.test'), filter)).toBeNull();
  });

  it("ignores another provider's popup, and shapes it does not know", () => {
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'linkedin', ticket: 't' }), filter)).toBeNull();
    expect(readOAuthMessage(message({ type: 'oauth-error', provider: 'microsoft', code: 'exchange-failed' }), filter)).toBeNull();
    expect(readOAuthMessage(message({ type: 'google-id-token', idToken: 't' }), filter)).toBeNull();
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'github' }), filter)).toBeNull();
    expect(readOAuthMessage(message({ type: 'oauth-result', provider: 'github', ticket: '' }), filter)).toBeNull();
    expect(readOAuthMessage(message('oauth-result'), filter)).toBeNull();
    expect(readOAuthMessage(message(null), filter)).toBeNull();
  });
});

describe('openOAuthPopup', () => {
  const filter = { trustedOrigin: TRUSTED, provider: 'github' } as const;

  it("opens a 500 by 600 popup named after the provider", () => {
    const { win, open } = fakeWindow(null);
    void openOAuthPopup('/api/auth/github/start?intent=login', filter, { win });
    expect(open).toHaveBeenCalledWith('/api/auth/github/start?intent=login', 'github-signin', 'width=500,height=600');
  });

  it('reports popup-blocked when window.open returns null', async () => {
    const { win } = fakeWindow(null);
    await expect(openOAuthPopup('/start', filter, { win })).resolves.toEqual({ ok: false, code: 'popup-blocked' });
  });

  it('resolves with the first message the filter accepts', async () => {
    const { win, post } = fakeWindow({ closed: false });
    const result = openOAuthPopup('/start', filter, { win });
    post({ type: 'oauth-result', provider: 'github', ticket: 'forged' }, 'https://evil.example');
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'other-popup' }, TRUSTED);
    post({ type: 'oauth-result', provider: 'github', ticket: 'real-ticket' }, TRUSTED);
    post({ type: 'oauth-error', provider: 'github', code: 'late' }, TRUSTED);
    await expect(result).resolves.toEqual({ ok: true, value: 'real-ticket' });
  });

  it('reports popup-closed-by-user when the popup closes without a message', async () => {
    vi.useFakeTimers();
    const popup = { closed: false };
    const { win } = fakeWindow(popup);
    const result = openOAuthPopup('/start', filter, { win, pollMs: 500 });
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toEqual({ ok: false, code: 'popup-closed-by-user' });
  });
});

describe('oauthPopupErrorMessage', () => {
  it('says the sign-in failed for the callback codes, naming the provider', () => {
    for (const code of ['not-configured', 'state-mismatch', 'exchange-failed', 'invalid-token', 'email-unavailable', 'something-new']) {
      expect(oauthPopupErrorMessage('linkedin', code)).toBe('LinkedIn sign-in failed. Please try again.');
    }
    expect(oauthPopupErrorMessage('github', 'exchange-failed')).toBe('GitHub sign-in failed. Please try again.');
  });

  it('says nothing when the person cancelled at the provider', () => {
    expect(oauthPopupErrorMessage('microsoft', 'access-denied')).toBeNull();
  });

  it("explains the popup's own failures as Google's do", () => {
    expect(oauthPopupErrorMessage('github', 'popup-closed-by-user')).toBe('GitHub sign-in was cancelled: the window was closed.');
    expect(oauthPopupErrorMessage('microsoft', 'popup-blocked')).toBe('The Microsoft sign-in window was blocked. Allow pop-ups for this site and try again.');
  });
});
