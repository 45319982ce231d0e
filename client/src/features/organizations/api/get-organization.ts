import { orgPath, orgRequest, type ApiResult } from './request';
import type { Organization } from './types';

/** GET /orgs/{id}: 404 for anyone who is not a member. */
export const getOrganization = (apiBaseUrl: string, id: string, signal?: AbortSignal): Promise<ApiResult<{ organization: Organization }>> =>
  orgRequest(apiBaseUrl, orgPath(id), { signal });
