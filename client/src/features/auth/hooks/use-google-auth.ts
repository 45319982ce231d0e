import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { accountToast } from '@/lib/account-toast';
import { usePageRestored } from '@/lib/use-page-restored';
import { failureMessage, needsTwoFactor } from '../api/auth-request';
import { googleLogin } from '../api/google-login';
import { googleRegister } from '../api/google-register';
import type { Role } from '../api/register';
import { googleStartUrl, openGooglePopup, popupErrorMessage } from '../utils/google-popup';
import { useFinishSignIn } from './use-finish-sign-in';

export const GOOGLE_UNAVAILABLE = 'Google sign-in is not available on this site';

type GoogleAuthOptions =
  | { intent: 'login'; target: () => string }
  | { intent: 'register'; role: Role; target: (role: Role) => string };

/** The Google popup, then google-login or google-register, then the signed-in ending. */
export function useGoogleAuth(options: GoogleAuthOptions) {
  const { apiBaseUrl, platformUrls, googleClientId } = useConfig();
  const finishSignIn = useFinishSignIn();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  usePageRestored(useCallback(() => setPending(false), []));

  const run = useCallback(async () => {
    const fallback = options.intent === 'login' ? 'Google login failed' : 'Google registration failed';
    // SPEC.md keeps the button on both screens; a site without Google set up says so rather
    // than open a popup onto the server's refusal.
    if (googleClientId === undefined) {
      accountToast.error(GOOGLE_UNAVAILABLE);
      return;
    }
    setPending(true);
    try {
      const intent = options.intent === 'login' ? { intent: 'login' as const } : { intent: 'register' as const, role: options.role };
      const popup = await openGooglePopup(googleStartUrl(apiBaseUrl, intent), { trustedOrigin: new URL(platformUrls.main).origin });
      if (!popup.ok) {
        const message = popupErrorMessage(popup.code, fallback);
        if (message) accountToast.error(message);
        setPending(false);
        return;
      }
      const result =
        options.intent === 'login'
          ? await googleLogin(apiBaseUrl, popup.idToken)
          : await googleRegister(apiBaseUrl, { idToken: popup.idToken, role: options.role });
      const target = options.intent === 'login' ? options.target() : options.target(options.role);
      if (needsTwoFactor(result.data)) {
        // The account has two-factor on: the login screen's code step finishes the sign-in.
        setPending(false);
        accountToast.info(result.message || 'Enter the code from your authenticator app');
        const state = { twoFactor: { challenge: result.data.challenge, target } };
        void navigate(`${paths.auth.login.getHref()}${window.location.search}`, { state });
        return;
      }
      const message = result.message || (options.intent === 'login' ? 'Logged in successfully' : 'Registered successfully');
      // A full-page navigation starts: the buttons stay busy until the page has gone.
      finishSignIn(result.data, message, target);
    } catch (error) {
      setPending(false);
      accountToast.error(failureMessage(error, fallback));
    }
  }, [apiBaseUrl, platformUrls.main, googleClientId, finishSignIn, navigate, options]);

  return { start: run, isPending };
}
