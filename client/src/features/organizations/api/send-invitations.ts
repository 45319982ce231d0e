import { orgPath, orgRequest, type ApiResult } from './request';
import type { Invitation, InviteRole, SkippedInvitation } from './types';

/** API.md: 1 to 500 addresses per call. */
export const MAX_INVITATIONS = 500;

export type SendInvitationsResult = { invitations: Invitation[]; skipped: SkippedInvitation[] };

/** POST /orgs/{id}/invitations {emails, role}: 201 "Invitations sent", what was sent and what was skipped. */
export const sendInvitations = (apiBaseUrl: string, id: string, input: { emails: string[]; role: InviteRole }): Promise<ApiResult<SendInvitationsResult>> =>
  orgRequest(apiBaseUrl, orgPath(id, '/invitations'), { method: 'POST', body: input });
