import { adminRequest, userPath, type ApiResult } from './request';

/** POST /admin/users/{id}/sign-out: "Signed out everywhere". */
export const signOutUser = (apiBaseUrl: string, id: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, userPath(id, '/sign-out'), { method: 'POST' });
