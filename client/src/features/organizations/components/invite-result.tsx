import type { SendInvitationsResult } from '../api/send-invitations';
import { SKIP_REASONS } from '../utils/labels';

/** What the last send did: the addresses invited, and those skipped with the reason. */
export function InviteResult({ result }: { result: SendInvitationsResult }) {
  const { invitations, skipped } = result;
  return (
    <div role="status" className="grid gap-3 rounded-xl bg-ink-50 p-4 ring-1 ring-ink-200" data-testid="invite-result">
      <div>
        <p className="font-semibold text-ink-900">
          {invitations.length === 0 ? 'No invitation was sent.' : `Sent ${invitations.length} ${invitations.length === 1 ? 'invitation' : 'invitations'}:`}
        </p>
        {invitations.length > 0 ? (
          <ul className="mt-1 list-disc pl-5 text-ink-800">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="break-all">
                {invitation.email}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {skipped.length > 0 ? (
        <div>
          <p className="font-semibold text-ink-900">Skipped {skipped.length === 1 ? '1 address' : `${skipped.length} addresses`}:</p>
          <ul className="mt-1 list-disc pl-5 text-ink-800">
            {skipped.map((skip) => (
              <li key={`${skip.email}-${skip.reason}`} className="break-all">
                {skip.email}: {SKIP_REASONS[skip.reason] ?? skip.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
