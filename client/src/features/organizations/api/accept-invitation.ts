import { orgRequest, type ApiResult } from './request';
import type { Organization } from './types';

/** POST /invitations/{token}/accept: "You joined {name}"; the signed-in email must be the invited one. */
export const acceptInvitation = (apiBaseUrl: string, token: string): Promise<ApiResult<{ organization: Organization }>> =>
  orgRequest(apiBaseUrl, `/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: {} });
