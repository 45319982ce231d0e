import { adminRequest, type ApiResult } from './request';
import type { AdminOrganization } from './types';

/** PUT /admin/orgs/{id} {seatLimit}: "Organization updated"; null lifts the limit. */
export const updateSeatLimit = (apiBaseUrl: string, id: string, seatLimit: number | null): Promise<ApiResult<{ organization?: AdminOrganization }>> =>
  adminRequest(apiBaseUrl, `/admin/orgs/${encodeURIComponent(id)}`, { method: 'PUT', body: { seatLimit } });
