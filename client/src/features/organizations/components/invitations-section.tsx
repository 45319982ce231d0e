import { useEffect, useState } from 'react';
import { SectionCard } from '@/components/section-card';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { useFieldErrors } from '@/lib/use-field-errors';
import { usePendingIds } from '@/lib/use-pending-ids';
import { listInvitations } from '../api/list-invitations';
import { failureMessage, fieldErrorsOf, statusOf } from '../api/request';
import { revokeInvitation } from '../api/revoke-invitation';
import { sendInvitations, type SendInvitationsResult } from '../api/send-invitations';
import type { Invitation, InviteRole, Organization } from '../api/types';
import { useResource } from '../hooks/use-resource';
import { InvitationsList } from './invitations-list';
import { InviteForm, type InviteErrors } from './invite-form';
import { InviteResult } from './invite-result';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';

type InvitationsSectionProps = {
  organization: Organization;
  /**
   * Goes up each time a member's role changes or a member is removed: the server has then
   * revoked the invitations they sent, so the list is loaded again.
   */
  membersVersion?: number;
};

/** For owners and org admins: invite people, and see or revoke the invitations still pending. */
export function InvitationsSection({ organization, membersVersion = 0 }: InvitationsSectionProps) {
  const { apiBaseUrl } = useConfig();
  const pending = useResource(organization.id, async (signal) => (await listInvitations(apiBaseUrl, organization.id, signal)).data.items);
  const { refresh } = pending;
  useEffect(() => {
    if (membersVersion > 0) refresh();
  }, [membersVersion, refresh]);
  const [sending, setSending] = useState(false);
  const { errors, setErrors, clear, setFromServer } = useFieldErrors<keyof InviteErrors>();
  const [result, setResult] = useState<SendInvitationsResult | null>(null);
  const { pendingIds: revokingIds, start, finish } = usePendingIds();

  const send = async (input: { emails: string[]; role: InviteRole }) => {
    setSending(true);
    setErrors({});
    try {
      const answer = await sendInvitations(apiBaseUrl, organization.id, input);
      setResult({ invitations: answer.data.invitations ?? [], skipped: answer.data.skipped ?? [] });
      accountToast.success(answer.message || 'Invitations sent');
      pending.refresh();
      return true;
    } catch (error) {
      setFromServer(fieldErrorsOf(error), ['emails', 'role']);
      accountToast.error(failureMessage(error));
      return false;
    } finally {
      setSending(false);
    }
  };

  const revoke = async (invitation: Invitation) => {
    if (!start(invitation.id)) return;
    try {
      const answer = await revokeInvitation(apiBaseUrl, organization.id, invitation.id);
      pending.setData((items) => items.filter((item) => item.id !== invitation.id));
      accountToast.success(answer.message || 'Invitation revoked');
    } catch (error) {
      accountToast.error(failureMessage(error));
      // Revoked, accepted or expired meanwhile: show what the server still has.
      if (statusOf(error) === 404) refresh();
    } finally {
      finish(invitation.id);
    }
  };

  let list;
  if (pending.resource.status === 'loading') list = <LoadingStatus>Loading invitations...</LoadingStatus>;
  else if (pending.resource.status === 'error') list = <ErrorMessage>{failureMessage(pending.resource.error)}</ErrorMessage>;
  else list = <InvitationsList invitations={pending.resource.data} pendingIds={revokingIds} onRevoke={(invitation) => void revoke(invitation)} />;

  return (
    <>
      <SectionCard title="Invite people">
        <p className="mb-4 text-ink-700">Each address gets an email with a link to join {organization.name}; the link works for 7 days.</p>
        <InviteForm pending={sending} errors={errors} onEdit={clear} onSubmit={send} canInviteOwners={organization.myRole !== 'admin'} />
        {result ? <div className="mt-4"><InviteResult result={result} /></div> : null}
      </SectionCard>
      <SectionCard title="Pending invitations">{list}</SectionCard>
    </>
  );
}
