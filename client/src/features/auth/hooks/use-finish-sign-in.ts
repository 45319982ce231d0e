import { useCallback } from 'react';
import { accountToast } from '@/lib/account-toast';
import { markSignedIn } from '@/lib/session';
import type { SessionUser } from '@/lib/session-store';
import { userTheme } from '@/lib/theme';
import { rememberTheme } from '@/lib/theme-storage';
import { storeToken } from '@/lib/token-storage';

/** Test seam for the full-page navigation that ends a sign-in. */
export const fullPageNavigation = {
  assign: (url: string) => window.location.assign(url),
};

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
    fullPageNavigation.assign(target);
  }, []);
}
