import { KeyRound, LoaderCircle } from 'lucide-react';
import { useCallback, useState } from 'react';
import { buttonClass } from '@/components/button-styles';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { useWebAuthnAvailable } from '@/lib/use-webauthn-available';
import type { Passkey } from '../api/passkeys';
import { usePasskeys } from '../hooks/use-passkeys';
import { PasskeyItem } from './passkey-item';

/**
 * Passkeys: the list, "Add a passkey" (where the browser can make one, after "Confirm it's you"
 * when the sign-in is old), rename and remove.
 */
export function PasskeysSection({ twoFactorEnabled = false }: { twoFactorEnabled?: boolean }) {
  const { needsConfirmation, dialog } = useConfirmIdentity(twoFactorEnabled);
  const { list, isAdding, busyId, add, rename, remove } = usePasskeys(needsConfirmation);
  const canCreate = useWebAuthnAvailable();
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const closeConfirm = useCallback(() => setRemoving(null), []);

  const confirmRemove = async (passkey: Passkey) => {
    await remove(passkey.id);
    setRemoving(null);
  };

  let body;
  if (list.state === 'loading') body = <p role="status" className="text-ink-700">Loading passkeys...</p>;
  else if (list.state === 'failed')
    body = (
      <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
        {list.message}
      </p>
    );
  else if (list.items.length === 0) body = <p className="text-ink-700">You have no passkeys yet.</p>;
  else
    body = (
      <ul aria-label="Your passkeys" className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
        {list.items.map((passkey) => (
          <PasskeyItem
            key={passkey.id}
            passkey={passkey}
            busy={busyId === passkey.id}
            onRename={(name) => rename(passkey.id, name)}
            onRemove={() => setRemoving(passkey)}
          />
        ))}
      </ul>
    );

  return (
    <SectionCard title="Passkeys">
      <p className="mb-4 text-ink-700">
        Sign in with your fingerprint, face or screen lock instead of your password and a code. A passkey stays on the device or password manager that
        made it.
      </p>
      {body}
      {canCreate ? (
        <button type="button" onClick={() => void add()} disabled={isAdding} aria-busy={isAdding || undefined} className={`${buttonClass('primary', 'md')} mt-4`}>
          {isAdding ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <KeyRound aria-hidden="true" className="size-4" />}
          Add a passkey
        </button>
      ) : (
        <p className="mt-4 text-sm text-ink-600">This browser cannot make passkeys; you can still rename or remove the ones you have.</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'this passkey'}?`}
        confirmLabel="Remove passkey"
        pendingLabel="Removing…"
        pending={removing !== null && busyId === removing.id}
        onCancel={closeConfirm}
        onConfirm={() => {
          if (removing) void confirmRemove(removing);
        }}
      >
        It will no longer sign you in. You may also delete it from the device or password manager that holds it.
      </ConfirmDialog>
      {dialog}
    </SectionCard>
  );
}
