import { orgPath, orgRequest, type ApiResult } from './request';
import type { MemberRole, Membership } from './types';

/** PUT /orgs/{id}/members/{userId} {role}: "Member updated". */
export const updateMember = (apiBaseUrl: string, id: string, userId: string, role: MemberRole): Promise<ApiResult<{ member?: Membership } | undefined>> =>
  orgRequest(apiBaseUrl, orgPath(id, `/members/${encodeURIComponent(userId)}`), { method: 'PUT', body: { role } });
