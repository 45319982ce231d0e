import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import { useConfig } from '@/lib/config-context';
import { markSignedIn } from '@/lib/session';
import { storeToken } from '@/lib/token-storage';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { failureMessage, fieldErrorsOf } from '../api/auth-request';
import { sendOtpEmail } from '../api/send-otp-email';
import { verifyOtpEmail } from '../api/verify-otp-email';
import { AuthLayout } from '../components/auth-layout';
import { SubmitButton } from '../components/submit-button';
import { OTP_RESEND_COOLDOWN_S, useCooldown } from '../hooks/use-cooldown';
import { hasErrors, validateOtp } from '../utils/auth-forms';
import { readVerifyOtpState } from '../utils/verify-otp-state';

export const INVALID_STATE_MESSAGE = 'Invalid verification state. Please register again.';

/** Without an email in the navigation state there is nothing to verify: back to /register. */
function InvalidState() {
  useEffect(() => {
    accountToast.error(INVALID_STATE_MESSAGE, 'invalid-verification-state');
  }, []);
  return <Navigate to={paths.auth.register.getHref()} replace />;
}

export function VerifyOtpPage() {
  const location = useLocation();
  const state = readVerifyOtpState(location.state);
  if (!state) return <InvalidState />;
  return <VerifyOtpForm email={state.email} next={state.next} resendIn={state.resendIn} />;
}

function VerifyOtpForm({ email, next, resendIn }: { email: string; next: string | undefined; resendIn: number | undefined }) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [otp, setOtp] = useState('');
  const [isVerifying, setVerifying] = useState(false);
  const [isSending, setSending] = useState(false);
  const { errors, setErrors, clear } = useFieldErrors<'otp'>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  // A code was just sent (after register or a refused sign-in), so the cooldown starts now;
  // or the server refused to send one, and its wait is counted down instead.
  const cooldown = useCooldown(resendIn ?? OTP_RESEND_COOLDOWN_S);
  const [refusedOnTheWay] = useState(resendIn !== undefined);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateOtp({ otp });
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setVerifying(true);
    try {
      const result = await verifyOtpEmail(apiBaseUrl, { email, otp: otp.trim() });
      storeToken(result.data.token);
      markSignedIn(result.data.user);
      accountToast.success(result.message || 'Email verified successfully!');
      // SPEC.md: home, unless the flow came from a page of this site that wants the person back.
      void navigate(next ?? paths.home.getHref());
    } catch (error) {
      // SPEC.md section 8: 'Invalid OTP' inline and as a toast, as is whatever else the
      // server says of the code (expired, too many tries).
      const message = failureMessage(error, 'Invalid OTP');
      setErrors({ otp: fieldErrorsOf(error).otp ?? message });
      accountToast.error(message);
    } finally {
      setVerifying(false);
    }
  };

  const onResend = async () => {
    setSending(true);
    try {
      await sendOtpEmail(apiBaseUrl, email);
      accountToast.success('OTP resent to your email');
      cooldown.start(OTP_RESEND_COOLDOWN_S);
    } catch (error) {
      accountToast.error(failureMessage(error, 'Failed to resend OTP'));
      // The server's cooldown is still running (a code sent before a reload, say): count down
      // what it has left instead of letting the button be pressed into the same refusal.
      if (error instanceof ApiError && error.retryAfterSeconds !== undefined) cooldown.start(error.retryAfterSeconds);
    } finally {
      setSending(false);
    }
  };

  const resendLabel = cooldown.remaining > 0 ? `Resend in ${cooldown.remaining}s` : isSending ? 'Sending...' : 'Resend OTP';

  return (
    <AuthLayout title="Verify Your Email" subtitle="Enter the one-time code we sent to your email address.">
      <p className="mb-4 rounded-lg bg-accent-soft px-4 py-3 text-sm text-accent-strong">
        {refusedOnTheWay ? 'Enter the last code sent to ' : 'Code sent to '}
        <strong className="break-all">{email}</strong>
      </p>
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Verify OTP">
        <TextField
          label="OTP"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={otp}
          error={errors.otp}
          onChange={(event) => {
            setOtp(event.target.value);
            clear('otp');
          }}
        />
        <SubmitButton pending={isVerifying}>{isVerifying ? 'Verifying...' : 'Verify OTP'}</SubmitButton>
      </form>
      <button
        type="button"
        onClick={() => void onResend()}
        disabled={cooldown.remaining > 0 || isSending || isVerifying}
        className={`${buttonClass('secondary', 'md')} mt-3 w-full`}
      >
        {resendLabel}
      </button>
    </AuthLayout>
  );
}
