import { useMutation } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { ModalDialog } from '@/components/modal-dialog';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { REAUTHENTICATE_MUTATION } from '@/lib/reauthenticate';
import { useConfig } from '@/lib/config-context';
import { signOut } from '@/lib/logout-request';
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
  const [useCode, setUseCode] = useState(false);
  // After a switch between password and code the new field takes the focus; on opening, the
  // modal gives it (and remembers where to give it back).
  const [switched, setSwitched] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [reauthenticate, { loading }] = useMutation(REAUTHENTICATE_MUTATION);
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const location = useLocation();
  const busy = loading || signingOut;

  // An account without a password (Google, another provider, a sign-in link) and without
  // two-factor has nothing to type here; a fresh sign-in works for every account. The login
  // page brings the person back to this page afterwards.
  const signInAgain = async () => {
    setSigningOut(true);
    const signedOut = await signOut(apiBaseUrl);
    setSigningOut(false);
    if (signedOut) void navigate(paths.auth.login.getHref({ redirect: `${location.pathname}${location.search}` }));
  };

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
      // Whichever key the server names (it asks for "your password or a code" under `code`),
      // the error goes under the one field on screen.
      setError(fields[field] ?? fields.password ?? fields.code ?? graphQLMessage(failure, 'Something went wrong'));
    }
  };

  return (
    <ModalDialog
      open
      title="Confirm it's you"
      busy={busy}
      onClose={onCancel}
      description={`For your security, this change needs a recent sign-in. ${useCode ? 'Enter a code from your authenticator app or a recovery code.' : 'Enter your password to continue.'}`}
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4">
        <TextField
          data-autofocus
          autoFocus={switched}
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
            setSwitched(true);
            setValue('');
            setError(undefined);
          }}>
            {useCode ? 'Use your password instead' : 'Use an authenticator code instead'}
          </button>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onCancel} disabled={busy} className={buttonClass('secondary', 'md')}>
            Cancel
          </button>
          <button type="submit" disabled={busy} className={buttonClass('primary', 'md')}>
            {loading ? 'Checking…' : 'Confirm'}
          </button>
        </div>
      </form>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-ink-200 pt-4">
        <p className="text-sm text-ink-700">No password? Sign in again to continue.</p>
        <button type="button" onClick={() => void signInAgain()} disabled={busy} className={buttonClass('secondary', 'sm')}>
          {signingOut ? 'Signing out…' : 'Sign in again'}
        </button>
      </div>
    </ModalDialog>
  );
}
