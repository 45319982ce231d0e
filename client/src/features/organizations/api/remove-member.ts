import { orgPath, orgRequest, type ApiResult } from './request';

/** DELETE /orgs/{id}/members/{userId}: "Member removed"; with one's own id, leaving. */
export const removeMember = (apiBaseUrl: string, id: string, userId: string): Promise<ApiResult<unknown>> =>
  orgRequest(apiBaseUrl, orgPath(id, `/members/${encodeURIComponent(userId)}`), { method: 'DELETE' });
