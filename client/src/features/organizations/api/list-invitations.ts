import { orgPath, orgRequest, type ApiResult } from './request';
import type { Invitation } from './types';

/** GET /orgs/{id}/invitations: the pending ones; owners and org admins. */
export const listInvitations = (apiBaseUrl: string, id: string, signal?: AbortSignal): Promise<ApiResult<{ items: Invitation[] }>> =>
  orgRequest(apiBaseUrl, orgPath(id, '/invitations'), { signal });
