import { useMutation } from '@apollo/client/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { REAUTHENTICATE_MUTATION } from '@/lib/reauthenticate';
import { codeError, passwordError } from '@/lib/validation';

type ConfirmIdentityDialogProps = {
  open: boolean;
  /** Offer a code from the authenticator app instead of the password. */
  twoFactorEnabled: boolean;
  onCancel: () => void;
  onConfirmed: () => void;
};

/**
 * "Confirm it's you": asked before a sensitive change (deleting the account, two-factor on or
 * off, a first password, a new passkey or connected account) when the last sign-in is more
 * than ten minutes old.
 */
export function ConfirmIdentityDialog({ open, ...props }: ConfirmIdentityDialogProps) {
  // Mounted only while open: it starts blank each time, and needs the GraphQL client only then.
  return open ? <OpenDialog {...props} /> : null;
}

function OpenDialog({ twoFactorEnabled, onCancel, onConfirmed }: Omit<ConfirmIdentityDialogProps, 'open'>) {
  const titleId = useId();
  const textId = useId();
  const [useCode, setUseCode] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [reauthenticate, { loading }] = useMutation(REAUTHENTICATE_MUTATION);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !loading) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, [loading, onCancel]);

  const field = useCode ? 'code' : 'password';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Spaces alone count as blank, for the password too.
    const missing = useCode ? codeError(value) : passwordError(value.trim());
    if (missing) {
      setError(missing);
      return;
    }
    try {
      await reauthenticate({ variables: { input: useCode ? { code: value.trim() } : { password: value } } });
      onConfirmed();
    } catch (failure) {
      const fields = graphQLFieldErrors(failure);
      setError(fields[field] ?? fields.password ?? fields.code ?? graphQLMessage(failure, 'Something went wrong'));
    }
  };

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/60 p-4">
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} className="w-full max-w-md rounded-2xl bg-paper p-6 shadow-xl">
        <h2 id={titleId} className="text-lg font-bold text-ink-900">
          Confirm it&apos;s you
        </h2>
        <p id={textId} className="mt-2 text-ink-700">
          For your security, this change needs a recent sign-in. {useCode ? 'Enter a code from your authenticator app or a recovery code.' : 'Enter your password to continue.'}
        </p>
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4">
          <TextField
            autoFocus
            key={field}
            label={useCode ? 'Authentication code' : 'Password'}
            type={useCode ? 'text' : 'password'}
            inputMode={useCode ? 'numeric' : undefined}
            autoComplete={useCode ? 'one-time-code' : 'current-password'}
            value={value}
            error={error}
            onChange={(event) => {
              setValue(event.target.value);
              setError(undefined);
            }}
          />
          {twoFactorEnabled ? (
            <button type="button" className="justify-self-start text-sm font-semibold text-accent hover:underline" onClick={() => {
              setUseCode(!useCode);
              setValue('');
              setError(undefined);
            }}>
              {useCode ? 'Use your password instead' : 'Use an authenticator code instead'}
            </button>
          ) : null}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={onCancel} disabled={loading} className={buttonClass('secondary', 'md')}>
              Cancel
            </button>
            <button type="submit" disabled={loading} className={buttonClass('primary', 'md')}>
              {loading ? 'Checking…' : 'Confirm'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
