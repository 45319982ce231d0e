import { useCallback } from 'react';
import { accountToast } from '@/lib/account-toast';
import { markSignedIn } from '@/lib/session';
import type { SessionUser } from '@/lib/session-store';
import { userTheme } from '@/lib/theme';
import { rememberTheme } from '@/lib/theme-storage';
import { AFTER_NAVIGATION } from '@/lib/toast';
import { storeToken } from '@/lib/token-storage';

/** Test seam for the full-page navigation that ends a sign-in. */
export const fullPageNavigation = {
  assign: (url: string) => window.location.assign(url),
};

/**
 * Keeps the success toast for the next page when it is one of this site: a sign-in ends with a
 * full-page navigation (SPEC.md section 2), which starts before its toast could be seen. A
 * platform's site on another origin cannot show it.
 */
export function toastAfterNavigation(message: string, target: string): void {
  try {
    if (new URL(target, window.location.href).origin === window.location.origin) window.sessionStorage.setItem(AFTER_NAVIGATION, message);
  } catch {
    // No storage (a private window's quota, say): the toast shown before leaving is all there is.
  }
}

/**
 * Stores the token, shows the signed-in header, toasts and leaves with a full-page navigation
 * (SPEC.md section 2: login ends with one) so the target platform starts with the session.
 */
export function useFinishSignIn() {
  return useCallback((data: { user: SessionUser; token: string }, message: string, target: string) => {
    storeToken(data.token);
    // Remembered now, not after a render: the next page paints in the user's theme at once.
    rememberTheme(userTheme(data.user.preferences?.theme));
    markSignedIn(data.user);
    accountToast.success(message);
    toastAfterNavigation(message, target);
    fullPageNavigation.assign(target);
  }, []);
}
