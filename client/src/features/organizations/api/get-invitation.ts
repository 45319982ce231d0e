import { orgRequest, type ApiResult } from './request';
import type { InvitationDetails } from './types';

/** GET /invitations/{token}: public; 404 unknown, 410 expired, revoked or used. */
export const getInvitation = (apiBaseUrl: string, token: string, signal?: AbortSignal): Promise<ApiResult<{ invitation: InvitationDetails }>> =>
  orgRequest(apiBaseUrl, `/invitations/${encodeURIComponent(token)}`, { signal });
