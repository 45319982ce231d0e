import { LoaderCircle } from 'lucide-react';
import { buttonClass } from '@/components/button-styles';
import { ProviderMark } from '@/components/provider-mark';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';
import type { IdentityRow } from '../utils/identity-rows';

type IdentityItemProps = { row: IdentityRow; busy: boolean; disabled: boolean; onConnect: () => void; onDisconnect: () => void };

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** One provider: its mark and name, the connected email and date (or "Not connected"), and Connect or Disconnect. */
export function IdentityItem({ row, busy, disabled, onConnect, onDisconnect }: IdentityItemProps) {
  const { provider, identity, canConnect } = row;
  const name = PROVIDER_NAMES[provider];
  return (
    <li data-testid="identity" className="flex flex-wrap items-center gap-3 px-4 py-3">
      <ProviderMark provider={provider} className="size-6 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-ink-900">{name}</p>
        <p className="break-words text-sm text-ink-700">
          {identity ? [identity.email, `Connected ${day(identity.linkedAt)}`].filter(Boolean).join(' · ') : 'Not connected'}
        </p>
      </div>
      {identity ? (
        <button type="button" disabled={busy || disabled} onClick={onDisconnect} aria-label={`Disconnect ${name}`} className={buttonClass('secondary', 'sm')}>
          Disconnect
        </button>
      ) : canConnect ? (
        <button type="button" disabled={busy || disabled} onClick={onConnect} aria-label={`Connect ${name}`} aria-busy={busy || undefined} className={buttonClass('secondary', 'sm')}>
          {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Connect
        </button>
      ) : null}
    </li>
  );
}
