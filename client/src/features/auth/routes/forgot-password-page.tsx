import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { failureMessage, fieldErrorsOf } from '../api/auth-request';
import { forgotPassword } from '../api/forgot-password';
import { AuthLayout } from '../components/auth-layout';
import { SubmitButton } from '../components/submit-button';
import { hasErrors, validateForgotPassword } from '../utils/auth-forms';

const backToSignIn = (
  <Link to={paths.auth.login.getHref()} className="font-semibold text-accent hover:underline">
    Back to Sign In
  </Link>
);

export function ForgotPasswordPage() {
  const { apiBaseUrl } = useConfig();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const { errors, setErrors, clear } = useFieldErrors<'email'>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateForgotPassword({ email });
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setPending(true);
    try {
      await forgotPassword(apiBaseUrl, email.trim());
      setSentTo(email.trim());
    } catch (error) {
      // SPEC.md section 8: this failure is shown inline on the email field.
      setErrors({ email: fieldErrorsOf(error).email ?? failureMessage(error, 'Failed to send reset link') });
    } finally {
      setPending(false);
    }
  };

  if (sentTo) {
    return (
      <AuthLayout title="Forgot Password" subtitle="Check your inbox for the link to choose a new password.">
        <div role="status" className="rounded-xl border border-emerald-200 bg-emerald-50 p-5 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50">
          <MailCheck aria-hidden="true" className="size-8 text-emerald-700 dark:text-emerald-300" />
          <h2 className="mt-3 text-lg font-bold">Reset Link Sent!</h2>
          <p className="mt-1 text-sm">
            If an account exists for <strong className="break-all">{sentTo}</strong>, a reset link has been sent to it. The link expires in 30 minutes.
          </p>
        </div>
        <p className="mt-6 text-center text-sm">{backToSignIn}</p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot Password" subtitle="Enter your account's email and we will send you a link to reset your password.">
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Forgot password">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            clear('email');
          }}
        />
        <SubmitButton pending={isPending}>{isPending ? 'Sending...' : 'Send Reset Link'}</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm">{backToSignIn}</p>
    </AuthLayout>
  );
}
