import { useCallback, useState } from 'react';
import { ConfirmIdentityDialog } from '@/components/confirm-identity-dialog';
import { isReauthenticationRequired } from './graphql-errors';

/** Opens "Confirm it's you" when `error` asks for it, then runs `again`; true when it did. */
export type NeedsConfirmation = (error: unknown, again: () => void) => boolean;

/**
 * Runs a sensitive change again once the person has confirmed it's them. A component calls
 * `needsConfirmation(error, retry)` in its catch: when the server asked for a recent sign-in it
 * opens the "Confirm it's you" dialog (render `dialog`) and retries after, and returns true.
 */
export function useConfirmIdentity(twoFactorEnabled: boolean) {
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const needsConfirmation: NeedsConfirmation = useCallback((error: unknown, again: () => void) => {
    if (!isReauthenticationRequired(error)) return false;
    setRetry(() => again);
    return true;
  }, []);
  const cancel = useCallback(() => setRetry(null), []);
  const dialog = (
    <ConfirmIdentityDialog
      open={retry !== null}
      twoFactorEnabled={twoFactorEnabled}
      onCancel={cancel}
      onConfirmed={() => {
        const again = retry;
        setRetry(null);
        again?.();
      }}
    />
  );
  return { needsConfirmation, dialog };
}
