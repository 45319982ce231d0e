import type { SignInProvider } from './config';
import { watchPopup, type PopupOutcome, type WatchPopupOptions } from './popup-window';
import { PROVIDER_NAMES } from './sign-in-providers';

/** Why the popup is opened: to sign in, to make an account (with its role), or to connect one to the signed-in account. */
export type OAuthIntent = { intent: 'login' } | { intent: 'register'; role: string } | { intent: 'link' };

/** The server's start page for `provider` (API.md "More sign-in providers"); it redirects to the provider. */
export function oauthStartUrl(apiBaseUrl: string, provider: SignInProvider, intent: OAuthIntent): string {
  const params = new URLSearchParams({ intent: intent.intent });
  if (intent.intent === 'register') params.set('role', intent.role);
  return `${apiBaseUrl}/auth/${provider}/start?${params.toString()}`;
}

export type OAuthMessageFilter = {
  /** The main platform's origin: the callback page is served there and posts to it. */
  trustedOrigin: string;
  provider: SignInProvider;
};

/**
 * The ticket (or error code) in a message from `provider`'s callback page, or null for any
 * other message: another origin, another provider's popup, or a shape it does not know.
 */
export function readOAuthMessage(event: MessageEvent, { trustedOrigin, provider }: OAuthMessageFilter): PopupOutcome<string> | null {
  if (event.origin !== trustedOrigin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const { type, provider: from, ticket, code } = data as Record<string, unknown>;
  if (from !== provider) return null;
  if (type === 'oauth-result' && typeof ticket === 'string' && ticket !== '') return { ok: true, value: ticket };
  if (type === 'oauth-error') return { ok: false, code: typeof code === 'string' ? code : 'unknown' };
  return null;
}

/**
 * Opens `provider`'s start page in a popup and resolves with the ticket its callback posts,
 * or with an error code: popup-blocked, popup-closed-by-user or the one the callback reported.
 */
export function openOAuthPopup(url: string, filter: OAuthMessageFilter, options: WatchPopupOptions = {}): Promise<PopupOutcome<string>> {
  return watchPopup(url, `${filter.provider}-signin`, (event) => readOAuthMessage(event, filter), options);
}

/**
 * The toast for a popup that brought no ticket, or null when there is nothing to say: the
 * person cancelled at the provider (access-denied).
 */
export function oauthPopupErrorMessage(provider: SignInProvider, code: string): string | null {
  const name = PROVIDER_NAMES[provider];
  switch (code) {
    case 'access-denied':
      return null;
    // The popup's own failures read as Google's do.
    case 'popup-closed-by-user':
      return `${name} sign-in was cancelled: the window was closed.`;
    case 'popup-blocked':
      return `The ${name} sign-in window was blocked. Allow pop-ups for this site and try again.`;
    default:
      return `${name} sign-in failed. Please try again.`;
  }
}
