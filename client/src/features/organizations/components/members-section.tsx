import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';
import { useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { usePendingIds } from '@/lib/use-pending-ids';
import { removeMember } from '../api/remove-member';
import { failureMessage, statusOf } from '../api/request';
import type { MemberRole, Membership, Organization } from '../api/types';
import { updateMember } from '../api/update-member';
import { useMembers } from '../hooks/use-members';
import { MembersList } from './members-list';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';

type MembersSectionProps = {
  organization: Organization;
  myUserId: string;
  onOrganizationChange: Dispatch<SetStateAction<Organization>>;
  /**
   * A member's role was changed or they were removed: the server then revokes the pending
   * invitations they sent, so the invitations shown are out of date.
   */
  onMembersChanged?: () => void;
};

type Confirming = { kind: 'remove'; member: Membership } | { kind: 'leave' } | null;

/** The members, a page at a time, with role changes, removal and leaving. */
export function MembersSection({ organization, myUserId, onOrganizationChange, onMembersChanged }: MembersSectionProps) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const members = useMembers(organization.id);
  const { pendingIds, start, finish } = usePendingIds();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const closeConfirm = useCallback(() => setConfirming(null), []);

  /** A member the server no longer has (removed elsewhere): their row goes. */
  const dropIfGone = (member: Membership, error: unknown) => {
    if (statusOf(error) !== 404) return;
    members.remove(member.user.id);
    onMembersChanged?.();
  };

  const changeRole = async (member: Membership, role: MemberRole) => {
    if (!start(member.user.id)) return;
    try {
      const result = await updateMember(apiBaseUrl, organization.id, member.user.id, role);
      members.setRole(member.user.id, result.data?.member?.role ?? role);
      if (member.user.id === myUserId) onOrganizationChange((current) => ({ ...current, myRole: role }));
      onMembersChanged?.();
      accountToast.success(result.message || 'Member updated');
    } catch (error) {
      accountToast.error(failureMessage(error));
      dropIfGone(member, error);
    } finally {
      finish(member.user.id);
    }
  };

  const remove = async (member: Membership) => {
    if (!start(member.user.id)) return;
    try {
      const result = await removeMember(apiBaseUrl, organization.id, member.user.id);
      members.remove(member.user.id);
      onOrganizationChange((current) => ({ ...current, memberCount: Math.max(0, current.memberCount - 1) }));
      onMembersChanged?.();
      accountToast.success(result.message || 'Member removed');
    } catch (error) {
      accountToast.error(failureMessage(error));
      dropIfGone(member, error);
    } finally {
      finish(member.user.id);
      setConfirming(null);
    }
  };

  const leave = async () => {
    if (!start(myUserId)) return;
    try {
      const result = await removeMember(apiBaseUrl, organization.id, myUserId);
      accountToast.success(result.message || 'Member removed');
      void navigate(paths.organizations.getHref());
    } catch (error) {
      accountToast.error(failureMessage(error));
      finish(myUserId);
      setConfirming(null);
    }
  };

  let body;
  if (members.loading) body = <LoadingStatus>Loading members...</LoadingStatus>;
  else if (members.error && members.members.length === 0) body = <ErrorMessage>{members.error}</ErrorMessage>;
  else
    body = (
      <>
        <MembersList
          members={members.members}
          myRole={organization.myRole}
          myUserId={myUserId}
          pendingUserIds={pendingIds}
          onChangeRole={(member, role) => void changeRole(member, role)}
          onRemove={(member) => setConfirming({ kind: 'remove', member })}
          onLeave={() => setConfirming({ kind: 'leave' })}
        />
        {members.error ? <p className="mt-3 text-danger">{members.error}</p> : null}
        {members.nextCursor ? (
          <button type="button" aria-disabled={members.loadingMore || undefined} onClick={() => {
            if (!members.loadingMore) members.loadMore();
          }} className={`${buttonClass('secondary', 'md')} mt-4`}>
            {members.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        ) : null}
      </>
    );

  const removing = confirming?.kind === 'remove' ? confirming.member : null;
  return (
    <SectionCard title="Members">
      {body}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.user.name || removing?.user.email || 'member'}?`}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={removing !== null && pendingIds.has(removing.user.id)}
        onCancel={closeConfirm}
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      >
        They lose access to {organization.name} until someone invites them again.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming?.kind === 'leave'}
        title={`Leave ${organization.name}?`}
        confirmLabel="Leave organization"
        pendingLabel="Leaving…"
        pending={pendingIds.has(myUserId)}
        onCancel={closeConfirm}
        onConfirm={() => void leave()}
      >
        You lose access to it until someone invites you again.
      </ConfirmDialog>
    </SectionCard>
  );
}
