import { orgPath, orgRequest, type ApiResult } from './request';

/** DELETE /orgs/{id}/invitations/{invitationId}: "Invitation revoked". */
export const revokeInvitation = (apiBaseUrl: string, id: string, invitationId: string): Promise<ApiResult<unknown>> =>
  orgRequest(apiBaseUrl, orgPath(id, `/invitations/${encodeURIComponent(invitationId)}`), { method: 'DELETE' });
