import { adminRequest, userPath, type ApiResult } from './request';

/** POST /admin/users/{id}/resend-verification: "Verification email sent"; 409 when already verified. */
export const resendVerification = (apiBaseUrl: string, id: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, userPath(id, '/resend-verification'), { method: 'POST' });
