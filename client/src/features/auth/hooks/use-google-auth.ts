import { useCallback, useState } from 'react';
import { useConfig } from '@/lib/config-context';
import { accountToast } from '@/lib/account-toast';
import { failureMessage } from '../api/auth-request';
import { googleLogin } from '../api/google-login';
import { googleRegister } from '../api/google-register';
import type { Role } from '../api/register';
import { googleStartUrl, openGooglePopup, popupErrorMessage } from '../utils/google-popup';
import { useFinishSignIn } from './use-finish-sign-in';

type GoogleAuthOptions =
  | { intent: 'login'; target: () => string }
  | { intent: 'register'; role: Role; target: (role: Role) => string };

/** The Google popup, then google-login or google-register, then the signed-in ending. */
export function useGoogleAuth(options: GoogleAuthOptions) {
  const { apiBaseUrl, platformUrls } = useConfig();
  const finishSignIn = useFinishSignIn();
  const [isPending, setPending] = useState(false);

  const run = useCallback(async () => {
    const fallback = options.intent === 'login' ? 'Google login failed' : 'Google registration failed';
    setPending(true);
    try {
      const intent = options.intent === 'login' ? { intent: 'login' as const } : { intent: 'register' as const, role: options.role };
      const popup = await openGooglePopup(googleStartUrl(apiBaseUrl, intent), { trustedOrigin: new URL(platformUrls.main).origin });
      if (!popup.ok) {
        accountToast.error(popupErrorMessage(popup.code) ?? fallback);
        return;
      }
      const result =
        options.intent === 'login'
          ? await googleLogin(apiBaseUrl, popup.idToken)
          : await googleRegister(apiBaseUrl, { idToken: popup.idToken, role: options.role });
      const message = result.message || (options.intent === 'login' ? 'Logged in successfully' : 'Registered successfully');
      finishSignIn(result.data, message, options.intent === 'login' ? options.target() : options.target(options.role));
    } catch (error) {
      accountToast.error(failureMessage(error, fallback));
    } finally {
      setPending(false);
    }
  }, [apiBaseUrl, platformUrls.main, finishSignIn, options]);

  return { start: run, isPending };
}
