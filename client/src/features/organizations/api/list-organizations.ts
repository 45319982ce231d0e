import { orgRequest, type ApiResult } from './request';
import type { Organization } from './types';

/** GET /orgs: the caller's organizations, by name. */
export const listOrganizations = (apiBaseUrl: string, signal?: AbortSignal): Promise<ApiResult<{ organizations: Organization[] }>> =>
  orgRequest(apiBaseUrl, '/orgs', { signal });
