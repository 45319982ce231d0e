import { adminRequest, userPath, type ApiResult } from './request';

/** DELETE /admin/users/{id}/sessions/{sessionId}: "Session signed out"; 404 "Session not found". */
export const endSession = (apiBaseUrl: string, id: string, sessionId: string): Promise<ApiResult<unknown>> =>
  adminRequest(apiBaseUrl, userPath(id, `/sessions/${encodeURIComponent(sessionId)}`), { method: 'DELETE' });
