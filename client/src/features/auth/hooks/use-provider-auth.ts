import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import type { SignInProvider } from '@/lib/config';
import { useConfig } from '@/lib/config-context';
import { oauthPopupErrorMessage, oauthStartUrl, openOAuthPopup } from '@/lib/oauth-popup';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';
import { usePageRestored } from '@/lib/use-page-restored';
import { failureMessage, needsTwoFactor, type SignInStepData } from '../api/auth-request';
import { oauthLogin } from '../api/oauth-login';
import { isPendingAccount, oauthRegister, type OAuthRegisterData } from '../api/oauth-register';
import type { Role } from '../api/register';
import { sendCodeOnTheWay } from '../api/send-otp-email';
import { verifyOtpState } from '../utils/verify-otp-state';
import { useFinishSignIn } from './use-finish-sign-in';

export type ProviderAuthOptions =
  | { intent: 'login'; target: () => string }
  | { intent: 'register'; role: Role; target: (role: Role) => string; next?: string | null };

/**
 * LinkedIn, Microsoft and GitHub (API.md "More sign-in providers"): the provider's popup, then
 * oauth/login or oauth/register with its ticket, then the same endings as Google's: signed in,
 * the two-factor step, or (a new account whose email the provider did not vouch for) the OTP screen.
 */
export function useProviderAuth(options: ProviderAuthOptions) {
  const { apiBaseUrl, platformUrls } = useConfig();
  const finishSignIn = useFinishSignIn();
  const navigate = useNavigate();
  const [pending, setPending] = useState<SignInProvider | null>(null);
  usePageRestored(useCallback(() => setPending(null), []));

  const start = useCallback(
    async (provider: SignInProvider) => {
      const name = PROVIDER_NAMES[provider];
      const fallback = options.intent === 'login' ? `${name} login failed` : `${name} registration failed`;
      setPending(provider);
      try {
        const intent = options.intent === 'login' ? { intent: 'login' as const } : { intent: 'register' as const, role: options.role };
        const popup = await openOAuthPopup(oauthStartUrl(apiBaseUrl, provider, intent), { trustedOrigin: new URL(platformUrls.main).origin, provider });
        if (!popup.ok) {
          const message = oauthPopupErrorMessage(provider, popup.code);
          if (message) accountToast.error(message);
          setPending(null);
          return;
        }
        const result: { message: string; data: OAuthRegisterData } =
          options.intent === 'login' ? await oauthLogin(apiBaseUrl, provider, popup.value) : await oauthRegister(apiBaseUrl, provider, { ticket: popup.value, role: options.role });
        const target = options.intent === 'login' ? options.target() : options.target(options.role);
        if (isPendingAccount(result.data)) {
          // The provider did not vouch for the email: like a password registration, the
          // mailed code proves it before the account can sign in.
          accountToast.success(result.message || 'Registered successfully');
          const email = result.data.user.email ?? '';
          const resendIn = await sendCodeOnTheWay(apiBaseUrl, email);
          setPending(null);
          const next = options.intent === 'register' ? options.next : null;
          void navigate(paths.auth.verifyOtp.getHref(), { state: verifyOtpState(email, { next, resendIn }) });
          return;
        }
        const data: SignInStepData = result.data;
        if (needsTwoFactor(data)) {
          // The account has two-factor on: the login screen's code step finishes the sign-in.
          setPending(null);
          accountToast.info(result.message || 'Enter the code from your authenticator app');
          const state = { twoFactor: { challenge: data.challenge, target } };
          void navigate(`${paths.auth.login.getHref()}${window.location.search}`, { state });
          return;
        }
        // A full-page navigation starts: the buttons stay busy until the page has gone.
        finishSignIn(data, result.message || (options.intent === 'login' ? 'Logged in successfully' : 'Registered successfully'), target);
      } catch (error) {
        setPending(null);
        accountToast.error(failureMessage(error, fallback));
      }
    },
    [apiBaseUrl, platformUrls.main, finishSignIn, navigate, options],
  );

  return { start, pending };
}
