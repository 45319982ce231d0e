import { useCallback, useState, type FormEvent } from 'react';
import { TextField } from '@/components/text-field';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import { useConfig } from '@/lib/config-context';
import { usePageRestored } from '@/lib/use-page-restored';
import { codeError } from '@/lib/validation';
import { failureMessage } from '../api/auth-request';
import { loginTwoFactor } from '../api/login';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import type { TwoFactorState } from '../utils/two-factor-state';
import { SubmitButton } from './submit-button';

type TwoFactorStepProps = TwoFactorState & {
  /** Back to the password step (also after the challenge has died). */
  onRestart: () => void;
};

/** The login screen's second step: a code from the authenticator app, or a recovery code. */
export function TwoFactorStep({ challenge, target, onRestart }: TwoFactorStepProps) {
  const { apiBaseUrl } = useConfig();
  const finishSignIn = useFinishSignIn();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isPending, setPending] = useState(false);
  usePageRestored(useCallback(() => setPending(false), []));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.trim();
    const missing = codeError(typed);
    if (missing) {
      setError(missing);
      return;
    }
    setPending(true);
    try {
      const result = await loginTwoFactor(apiBaseUrl, { challenge, code: typed });
      // A full-page navigation starts: the button stays busy until the page has gone.
      finishSignIn(result.data, result.message || 'Logged in successfully', target);
    } catch (failure) {
      setPending(false);
      const message = failureMessage(failure, 'Login failed');
      accountToast.error(message);
      // An expired, used or exhausted challenge cannot take another code: sign in again.
      if (failure instanceof ApiError && (failure.status === 410 || failure.status === 429)) {
        onRestart();
        return;
      }
      setError(message);
      setCode('');
    }
  };

  return (
    <form method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Two-factor sign-in">
      <p className="text-ink-700">Open your authenticator app and enter the 6-digit code for this account. Lost your phone? Enter one of your recovery codes instead.</p>
      <TextField
        label="Authentication code"
        name="code"
        inputMode="text"
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        autoFocus
        required
        maxLength={32}
        value={code}
        error={error}
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
      />
      <SubmitButton pending={isPending}>{isPending ? 'Verifying...' : 'Verify'}</SubmitButton>
      <button type="button" onClick={onRestart} className="w-full text-center text-sm font-semibold text-accent hover:underline">
        Back to sign in
      </button>
    </form>
  );
}
