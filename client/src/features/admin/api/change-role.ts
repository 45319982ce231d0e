import { adminRequest, userPath, type ApiResult } from './request';
import type { AdminUser, UserRole } from './types';

/** PUT /admin/users/{id}/role: "Role updated" with the user; an admin cannot change their own. */
export const changeRole = (apiBaseUrl: string, id: string, role: UserRole): Promise<ApiResult<{ user?: AdminUser }>> =>
  adminRequest(apiBaseUrl, userPath(id, '/role'), { method: 'PUT', body: { role } });
