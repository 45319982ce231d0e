import { useCallback, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { useConfig } from '@/lib/config-context';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { useIdentities } from '../hooks/use-identities';
import { identityRows, type IdentityRow } from '../utils/identity-rows';
import { IdentityItem } from './identity-item';

/**
 * "Connected accounts": Google, LinkedIn, Microsoft and GitHub accounts that sign in to this one.
 * Connecting one asks "Confirm it's you" first when the sign-in is old.
 */
export function ConnectedAccountsSection({ twoFactorEnabled = false }: { twoFactorEnabled?: boolean }) {
  const { googleClientId, signInProviders } = useConfig();
  const { needsConfirmation, dialog } = useConfirmIdentity(twoFactorEnabled);
  const { list, busy, connect, disconnect } = useIdentities(needsConfirmation);
  const [disconnecting, setDisconnecting] = useState<IdentityRow | null>(null);
  const closeConfirm = useCallback(() => setDisconnecting(null), []);

  const confirmDisconnect = async (row: IdentityRow) => {
    await disconnect(row.provider);
    setDisconnecting(null);
  };

  let body;
  if (list.state === 'loading') body = <p role="status" className="text-ink-700">Loading connected accounts...</p>;
  else if (list.state === 'failed')
    body = (
      <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
        {list.message}
      </p>
    );
  else {
    const rows = identityRows(list.items, { googleConfigured: googleClientId !== undefined, signInProviders });
    body =
      rows.length === 0 ? (
        <p className="text-ink-700">No other sign-in providers are available.</p>
      ) : (
        <ul aria-label="Your connected accounts" className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
          {rows.map((row) => (
            <IdentityItem
              key={row.provider}
              row={row}
              busy={busy === row.provider}
              disabled={busy !== null}
              onConnect={() => {
                if (row.provider !== 'google') void connect(row.provider);
              }}
              onDisconnect={() => setDisconnecting(row)}
            />
          ))}
        </ul>
      );
  }

  const name = disconnecting ? PROVIDER_NAMES[disconnecting.provider] : '';
  const email = disconnecting?.identity?.email;
  return (
    <SectionCard title="Connected accounts">
      <p className="mb-4 text-ink-700">Sign in with an account you already have elsewhere. A connected account signs in to this one without a password.</p>
      {body}
      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect ${name}?`}
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting…"
        pending={disconnecting !== null && busy === disconnecting.provider}
        onCancel={closeConfirm}
        onConfirm={() => {
          if (disconnecting) void confirmDisconnect(disconnecting);
        }}
      >
        {`You will no longer be able to sign in with this ${name} account${email ? ` (${email})` : ''}.`}
      </ConfirmDialog>
      {dialog}
    </SectionCard>
  );
}
