import { afterEach, describe, expect, it, vi } from 'vitest';
import { googleStartUrl, openGooglePopup } from './google-popup';

const TRUSTED = 'https://main.example.test';

function fakeWindow(popup: { closed: boolean } | null) {
  const target = new EventTarget();
  const open = vi.fn(() => popup);
  const win = Object.assign(target, { open }) as unknown as Window;
  const post = (data: unknown, origin: string) => target.dispatchEvent(new MessageEvent('message', { data, origin }));
  return { win, open, post };
}

afterEach(() => vi.useRealTimers());

describe('googleStartUrl', () => {
  it('asks the server to start the login or register flow', () => {
    expect(googleStartUrl('/api', { intent: 'login' })).toBe('/api/auth/google/start?intent=login');
    expect(googleStartUrl('/api', { intent: 'register', role: 'hire' })).toBe('/api/auth/google/start?intent=register&role=hire');
  });
});

describe('openGooglePopup', () => {
  it('opens a 500 by 600 popup named google-signin', () => {
    const { win, open } = fakeWindow(null);
    void openGooglePopup('/api/auth/google/start?intent=login', { trustedOrigin: TRUSTED, win });
    expect(open).toHaveBeenCalledWith('/api/auth/google/start?intent=login', 'google-signin', 'width=500,height=600');
  });

  it('reports popup-blocked when window.open returns null', async () => {
    const { win } = fakeWindow(null);
    await expect(openGooglePopup('/start', { trustedOrigin: TRUSTED, win })).resolves.toEqual({ ok: false, code: 'popup-blocked' });
  });

  it('takes the ID token only from the trusted origin', async () => {
    const { win, post } = fakeWindow({ closed: false });
    const result = openGooglePopup('/start', { trustedOrigin: TRUSTED, win });
    post({ type: 'google-id-token', idToken: 'forged' }, 'https://evil.example');
    post({ type: 'something-else' }, TRUSTED);
    post({ type: 'google-id-token', idToken: 'real-token' }, TRUSTED);
    await expect(result).resolves.toEqual({ ok: true, idToken: 'real-token' });
  });

  it('passes on the error code the callback page reports', async () => {
    const { win, post } = fakeWindow({ closed: false });
    const result = openGooglePopup('/start', { trustedOrigin: TRUSTED, win });
    post({ type: 'google-error', code: 'access_denied' }, TRUSTED);
    await expect(result).resolves.toEqual({ ok: false, code: 'access_denied' });
  });

  it('reports popup-closed-by-user when the popup closes without a message', async () => {
    vi.useFakeTimers();
    const popup = { closed: false };
    const { win } = fakeWindow(popup);
    const result = openGooglePopup('/start', { trustedOrigin: TRUSTED, win, pollMs: 500 });
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toEqual({ ok: false, code: 'popup-closed-by-user' });
  });
});
