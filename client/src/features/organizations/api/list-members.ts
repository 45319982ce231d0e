import { orgPath, orgRequest, type ApiResult } from './request';
import type { Membership, Page } from './types';

/** Members per page of the list. */
export const MEMBERS_PAGE_SIZE = 20;

/** GET /orgs/{id}/members?limit&cursor: owners first, then by name. */
export function listMembers(apiBaseUrl: string, id: string, cursor: string | null, signal?: AbortSignal): Promise<ApiResult<Page<Membership>>> {
  const query = new URLSearchParams({ limit: String(MEMBERS_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return orgRequest(apiBaseUrl, orgPath(id, `/members?${query.toString()}`), { signal });
}
