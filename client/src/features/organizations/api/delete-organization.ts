import { orgPath, orgRequest, type ApiResult } from './request';

/** DELETE /orgs/{id}: "Organization deleted"; owners only. */
export const deleteOrganization = (apiBaseUrl: string, id: string): Promise<ApiResult<unknown>> => orgRequest(apiBaseUrl, orgPath(id), { method: 'DELETE' });
