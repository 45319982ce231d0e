import { watchPopup } from '@/lib/popup-window';

/** SPEC.md section 9: the Google popup window is 500 by 600 (POPUP_FEATURES). */
export const GOOGLE_POPUP_NAME = 'google-signin';

export type GoogleIntent = { intent: 'login' } | { intent: 'register'; role: string };
export type GooglePopupResult = { ok: true; idToken: string } | { ok: false; code: string };

type PopupMessage = { type: 'google-id-token'; idToken: string } | { type: 'google-error'; code: string };

export function googleStartUrl(apiBaseUrl: string, intent: GoogleIntent): string {
  const params = new URLSearchParams({ intent: intent.intent });
  if (intent.intent === 'register') params.set('role', intent.role);
  return `${apiBaseUrl}/auth/google/start?${params.toString()}`;
}

function readMessage(data: unknown): PopupMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (record.type === 'google-id-token' && typeof record.idToken === 'string') return { type: 'google-id-token', idToken: record.idToken };
  if (record.type === 'google-error') return { type: 'google-error', code: typeof record.code === 'string' ? record.code : 'unknown' };
  return null;
}

export type OpenGooglePopupOptions = {
  /** Only messages from this origin (the main platform's) are believed. */
  trustedOrigin: string;
  win?: Window;
  pollMs?: number;
};

/**
 * Opens the server's Google start page in a popup and resolves with the ID token its callback
 * page posts back, or with an error code: popup-blocked, popup-closed-by-user or the code
 * the callback reported.
 */
export async function openGooglePopup(url: string, { trustedOrigin, win, pollMs }: OpenGooglePopupOptions): Promise<GooglePopupResult> {
  const outcome = await watchPopup(
    url,
    GOOGLE_POPUP_NAME,
    (event) => {
      if (event.origin !== trustedOrigin) return null;
      const message = readMessage(event.data);
      if (!message) return null;
      return message.type === 'google-id-token' ? { ok: true, value: message.idToken } : { ok: false, code: message.code };
    },
    { win, pollMs },
  );
  return outcome.ok ? { ok: true, idToken: outcome.value } : outcome;
}

/**
 * The toast for a popup that brought no ID token: friendly texts for the popup's own failures,
 * the screen's `fallback` for any other code, or null when there is nothing to say: the person
 * cancelled at Google's consent screen (access-denied), as with the other providers.
 */
export function popupErrorMessage(code: string, fallback: string): string | null {
  switch (code) {
    case 'access-denied':
      return null;
    case 'popup-closed-by-user':
      return 'Google sign-in was cancelled: the window was closed.';
    case 'popup-blocked':
      return 'The Google sign-in window was blocked. Allow pop-ups for this site and try again.';
    default:
      return fallback;
  }
}
