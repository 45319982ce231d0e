import { organizationsPath } from '../utils/query';
import { adminRequest } from './request';
import type { AdminOrganization, Page } from './types';

/** GET /admin/orgs: every organization (or those matching the search), a page at a time. */
export const listOrganizations = async (apiBaseUrl: string, query: string, cursor: string | null, signal?: AbortSignal): Promise<Page<AdminOrganization>> =>
  (await adminRequest<Page<AdminOrganization>>(apiBaseUrl, organizationsPath(query, cursor), { signal })).data;
