import { buttonClass } from '@/components/button-styles';
import type { Invitation } from '../api/types';
import { formatDate, ROLE_LABELS } from '../utils/labels';

type InvitationsListProps = {
  invitations: Invitation[];
  /** The invitations whose revoke is on its way: their buttons wait. */
  pendingIds: ReadonlySet<string>;
  onRevoke: (invitation: Invitation) => void;
};

/** The pending invitations: to whom, as what, by whom and until when; each can be revoked. */
export function InvitationsList({ invitations, pendingIds, onRevoke }: InvitationsListProps) {
  if (invitations.length === 0) return <p className="text-ink-700">No invitation is waiting for an answer.</p>;
  return (
    <ul className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
      {invitations.map((invitation) => (
        <li key={invitation.id} data-testid="invitation" className="flex flex-wrap items-center gap-3 px-4 py-3">
          <div className="min-w-0 flex-1 basis-48">
            <p className="break-all font-semibold text-ink-900">{invitation.email}</p>
            <p className="text-sm text-ink-700">
              {ROLE_LABELS[invitation.role]} · invited by {invitation.invitedBy.name} · expires {formatDate(invitation.expiresAt)}
            </p>
          </div>
          <button type="button" disabled={pendingIds.has(invitation.id)} onClick={() => onRevoke(invitation)} aria-label={`Revoke the invitation for ${invitation.email}`} className={buttonClass('secondary', 'sm')}>
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}
