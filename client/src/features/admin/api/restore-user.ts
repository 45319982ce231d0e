import { adminRequest, userPath, type ApiResult } from './request';

/** POST /admin/users/{id}/restore: "Account restored". */
export const restoreUser = (apiBaseUrl: string, id: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, userPath(id, '/restore'), { method: 'POST' });
