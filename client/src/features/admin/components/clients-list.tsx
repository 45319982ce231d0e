import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import type { OAuthClient } from '../api/oauth-clients';

type ClientsListProps = {
  clients: OAuthClient[];
  busy: boolean;
  onRotate: (client: OAuthClient) => void;
  onDelete: (client: OAuthClient) => void;
};

/** Each registered application: its id, kind, ID token signature and redirect URIs; a new secret (confidential ones) or delete. */
export function ClientsList({ clients, busy, onRotate, onDelete }: ClientsListProps) {
  return (
    <ul className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
      {clients.map((client) => (
        <li key={client.clientId} data-testid="oauth-client" className="flex flex-wrap items-start gap-3 px-4 py-4">
          <div className="min-w-0 flex-1 basis-64">
            <p className="flex flex-wrap items-center gap-2 font-semibold text-ink-900">
              <span className="break-words">{client.name}</span>
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.neutral}`}>{client.public ? 'Public' : 'Confidential'}</span>
              {client.firstParty ? <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.success}`}>First-party</span> : null}
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.neutral}`}>
                <span className="sr-only">ID tokens signed with </span>
                {client.idTokenSignedResponseAlg}
              </span>
            </p>
            <p className="mt-1 break-all font-mono text-sm text-ink-700">
              <span className="font-sans text-ink-600">Client ID: </span>
              {client.clientId}
            </p>
            <ul aria-label={`Redirect URIs of ${client.name}`} className="mt-1 grid gap-0.5">
              {client.redirectUris.map((uri) => (
                <li key={uri} className="break-all font-mono text-xs text-ink-700">
                  {uri}
                </li>
              ))}
            </ul>
          </div>
          <div className="flex flex-wrap gap-2">
            {client.public ? null : (
              <button type="button" disabled={busy} onClick={() => onRotate(client)} aria-label={`Rotate secret of ${client.name}`} className={buttonClass('secondary', 'sm')}>
                Rotate secret
              </button>
            )}
            <button type="button" disabled={busy} onClick={() => onDelete(client)} aria-label={`Delete ${client.name}`} className={buttonClass('secondary', 'sm')}>
              Delete
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
