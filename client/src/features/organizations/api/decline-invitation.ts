import { orgRequest, type ApiResult } from './request';

/** POST /invitations/{token}/decline: "Invitation declined"; public (the link is the secret), and its seat is free at once. */
export const declineInvitation = (apiBaseUrl: string, token: string): Promise<ApiResult<unknown>> =>
  orgRequest(apiBaseUrl, `/invitations/${encodeURIComponent(token)}/decline`, { method: 'POST', body: {} });
