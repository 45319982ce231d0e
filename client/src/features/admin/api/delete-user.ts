import { adminRequest, type ApiResult } from './request';

/**
 * DELETE /users/{id} (the account deletion call, which admins may make for anyone): "Account
 * deleted"; 403 REAUTHENTICATION_REQUIRED when the admin's own sign-in is not recent.
 */
export const deleteUser = (apiBaseUrl: string, id: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, `/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
