import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { failureMessage, fieldErrorsOf } from '../api/auth-request';
import { resetPassword } from '../api/reset-password';
import { AuthLayout } from '../components/auth-layout';
import { PasswordField } from '../components/password-field';
import { SubmitButton } from '../components/submit-button';
import { hasErrors, validateResetPassword, type ResetValues } from '../utils/auth-forms';

export function ResetPasswordPage() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.auth.forgotPassword.getHref()} replace />;
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [values, setValues] = useState<ResetValues>({ password: '', confirmPassword: '' });
  const [isPending, setPending] = useState(false);
  const { errors, setErrors, clear } = useFieldErrors<keyof ResetValues>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const update = (field: keyof ResetValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    clear(field);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateResetPassword(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setPending(true);
    try {
      const result = await resetPassword(apiBaseUrl, token, values.password);
      accountToast.success(result.message || 'Password reset successfully');
      void navigate(paths.auth.login.getHref());
    } catch (error) {
      const message = failureMessage(error, 'Failed to reset password');
      accountToast.error(message);
      // SPEC.md section 4: an expired link sends the user back to ask for a new one.
      if (message.toLowerCase().includes('expired')) {
        void navigate(paths.auth.forgotPassword.getHref());
        return;
      }
      const serverPassword = fieldErrorsOf(error).password;
      if (serverPassword) setErrors({ password: serverPassword });
      setPending(false);
      return;
    }
    setPending(false);
  };

  return (
    <AuthLayout title="Reset Password" subtitle="Choose a new password for your Talent Suite account.">
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Reset password">
        <PasswordField
          label="New Password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 6 characters with a letter and a number; symbols @$!%*?& allowed."
          value={values.password}
          error={errors.password}
          onChange={(event) => update('password', event.target.value)}
        />
        <PasswordField
          label="Confirm Password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={(event) => update('confirmPassword', event.target.value)}
        />
        <SubmitButton pending={isPending}>{isPending ? 'Resetting...' : 'Reset Password'}</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to={paths.auth.login.getHref()} className="font-semibold text-accent hover:underline">
          Back to Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}
