import { adminRequest, userPath, type ApiResult } from './request';

/** POST /admin/users/{id}/suspend: "Account suspended"; every session of the account ends. */
export const suspendUser = (apiBaseUrl: string, id: string, reason: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, userPath(id, '/suspend'), { method: 'POST', body: { reason } });
