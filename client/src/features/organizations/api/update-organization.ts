import { orgPath, orgRequest, type ApiResult } from './request';
import type { Organization } from './types';

export type UpdateOrganizationInput = { name?: string; slug?: string };

/** PUT /orgs/{id}: "Organization updated"; owners and org admins. */
export const updateOrganization = (apiBaseUrl: string, id: string, input: UpdateOrganizationInput): Promise<ApiResult<{ organization?: Organization }>> =>
  orgRequest(apiBaseUrl, orgPath(id), { method: 'PUT', body: input });
