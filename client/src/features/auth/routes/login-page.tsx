import { KeyRound } from 'lucide-react';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import { useConfig } from '@/lib/config-context';
import { usePageRestored } from '@/lib/use-page-restored';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { failureMessage, fieldErrorsOf, needsTwoFactor } from '../api/auth-request';
import { login } from '../api/login';
import { requestMagicLink } from '../api/magic-link';
import { sendCodeOnTheWay } from '../api/send-otp-email';
import { AuthLayout } from '../components/auth-layout';
import { GoogleButton, OrDivider } from '../components/google-button';
import { PasswordField } from '../components/password-field';
import { ProviderButtons } from '../components/provider-buttons';
import { SubmitButton } from '../components/submit-button';
import { TwoFactorStep } from '../components/two-factor-step';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { useGoogleAuth } from '../hooks/use-google-auth';
import { useOfferedProviders } from '../hooks/use-offered-providers';
import { usePasskeySignIn } from '../hooks/use-passkey-sign-in';
import { useProviderAuth } from '../hooks/use-provider-auth';
import { useReturnPath } from '../hooks/use-return-path';
import { loginTarget } from '../utils/redirect-target';
import { readTwoFactorState, type TwoFactorState } from '../utils/two-factor-state';
import { verifyOtpState } from '../utils/verify-otp-state';
import { hasErrors, validateForgotPassword, validateLogin, type LoginValues } from '../utils/auth-forms';

const FIELDS = ['email', 'password'] as const;

export function LoginPage() {
  const { apiBaseUrl, platformUrls } = useConfig();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const twoFactor = readTwoFactorState(location.state);
  const finishSignIn = useFinishSignIn();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [isPending, setPending] = useState(false);
  usePageRestored(useCallback(() => setPending(false), []));
  const [isSendingLink, setSendingLink] = useState(false);
  const { errors, setErrors, clear, setFromServer } = useFieldErrors<keyof LoginValues>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const target = () => loginTarget(searchParams.get('redirect'), platformUrls);
  // A redirect that is a path of this site (an invitation) also survives a detour through
  // registration or email verification.
  const returnPath = useReturnPath('redirect');
  const google = useGoogleAuth({ intent: 'login', target });
  const providers = useOfferedProviders();
  const oauth = useProviderAuth({ intent: 'login', target });
  const socialPending = google.isPending || oauth.pending !== null;
  // A passkey is both factors: its sign-in ends exactly like a password's.
  const passkey = usePasskeySignIn((result) => finishSignIn(result.data, result.message || 'Logged in successfully', target()), { autofillWanted: !twoFactor });

  const update = (field: keyof LoginValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    clear(field);
  };

  // The code step lives in the history entry's state: Back returns to the password step.
  const askForCode = (state: TwoFactorState) => void navigate(`${location.pathname}${location.search}`, { state: { twoFactor: state } });
  const restart = () => {
    setValues((current) => ({ ...current, password: '' }));
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  };

  if (twoFactor) {
    return (
      <AuthLayout title="Two-factor sign-in" subtitle="One more step: confirm it is you with your authenticator app.">
        <TwoFactorStep challenge={twoFactor.challenge} target={twoFactor.target} onRestart={restart} />
      </AuthLayout>
    );
  }

  // Passwordless: only the email is needed; the answer is the same whether it has an account.
  const emailLink = async () => {
    const found = validateForgotPassword({ email: values.email });
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setSendingLink(true);
    try {
      // A page of this site that sent the person here ("Confirm it's you") rides in the link.
      const result = await requestMagicLink(apiBaseUrl, values.email.trim(), returnPath);
      accountToast.success(result.message || 'If an account exists for this email, a sign-in link has been sent.');
    } catch (error) {
      setFromServer(fieldErrorsOf(error), FIELDS);
      accountToast.error(failureMessage(error, 'Failed to send the sign-in link'));
    } finally {
      setSendingLink(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setPending(true);
    try {
      const result = await login(apiBaseUrl, { email: values.email.trim(), password: values.password });
      if (needsTwoFactor(result.data)) {
        setPending(false);
        accountToast.info(result.message || 'Enter the code from your authenticator app');
        askForCode({ challenge: result.data.challenge, target: target() });
        return;
      }
      // A full-page navigation starts: the button stays busy until the page has gone, so a
      // second click cannot sign in again.
      finishSignIn(result.data, result.message || 'Logged in successfully', target());
    } catch (error) {
      const message = failureMessage(error, 'Login failed');
      // SPEC.md section 2: a failure that mentions 'verify' leads to the OTP screen.
      if (message.toLowerCase().includes('verify') || (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED')) {
        accountToast.info(message);
        const email = values.email.trim();
        const resendIn = await sendCodeOnTheWay(apiBaseUrl, email);
        void navigate(paths.auth.verifyOtp.getHref(), { state: verifyOtpState(email, { next: returnPath, resendIn }) });
        return;
      }
      setPending(false);
      setFromServer(fieldErrorsOf(error), FIELDS);
      accountToast.error(message);
    }
  };

  return (
    <AuthLayout title="Sign In" subtitle="Welcome back. Sign in to continue to your platform.">
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Sign in">
        <TextField
          label="Email"
          type="email"
          name="email"
          // With passkeys offered in autofill, the field's suggestions include them.
          autoComplete={passkey.autofill ? 'username webauthn' : 'email'}
          required
          value={values.email}
          error={errors.email}
          onChange={(event) => update('email', event.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={values.password}
          error={errors.password}
          onChange={(event) => update('password', event.target.value)}
        />
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <label className="inline-flex items-center gap-2 text-ink-700">
            {/* SPEC.md section 2: shown, with no effect; the browser keeps its state. */}
            <input type="checkbox" className="size-4 rounded border-ink-300 accent-indigo-700" />
            Remember me
          </label>
          <Link to={paths.auth.forgotPassword.getHref()} className="font-semibold text-accent hover:underline">
            Forgot Password
          </Link>
        </div>
        <SubmitButton pending={isPending} disabled={socialPending || passkey.isPending}>
          {isPending ? 'Signing In...' : 'Sign In'}
        </SubmitButton>
      </form>
      <OrDivider />
      <GoogleButton label="Sign in with Google" onClick={() => void google.start()} pending={google.isPending} disabled={isPending || passkey.isPending || oauth.pending !== null} />
      <ProviderButtons providers={providers} pending={oauth.pending} disabled={isPending || passkey.isPending || google.isPending} onStart={(provider) => void oauth.start(provider)} />
      <p className="mt-4 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-ink-700">
        {passkey.available ? (
          <button
            type="button"
            onClick={() => void passkey.signIn()}
            disabled={passkey.isPending || isPending}
            aria-busy={passkey.isPending || undefined}
            className="inline-flex items-center gap-1.5 font-semibold text-accent hover:underline disabled:opacity-60"
          >
            <KeyRound aria-hidden="true" className="size-4" />
            Sign in with a passkey
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => void emailLink()}
          disabled={isSendingLink || isPending}
          aria-busy={isSendingLink || undefined}
          className="font-semibold text-accent hover:underline disabled:opacity-60"
        >
          Email me a sign-in link
        </button>
      </p>
      <p className="mt-6 text-center text-sm text-ink-700">
        Don&apos;t have an account?{' '}
        <Link to={paths.auth.register.getHref({ next: returnPath ?? undefined })} className="font-semibold text-accent hover:underline">
          Register
        </Link>
      </p>
    </AuthLayout>
  );
}
