import { orgRequest, type ApiResult } from './request';
import type { Organization } from './types';

/** Without a slug the server makes one from the name. */
export type CreateOrganizationInput = { name: string; slug?: string };

/** POST /orgs: 201 "Organization created"; the caller owns it, its kind is the caller's role. */
export const createOrganization = (apiBaseUrl: string, input: CreateOrganizationInput): Promise<ApiResult<{ organization: Organization }>> =>
  orgRequest(apiBaseUrl, '/orgs', { method: 'POST', body: input });
