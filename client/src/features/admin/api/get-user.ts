import { adminRequest, userPath } from './request';
import type { AdminUserDetails } from './types';

/** GET /admin/users/{id}: the account, its sessions, organizations, sign-in methods and audit trail; 404 "User not found". */
export const getUser = async (apiBaseUrl: string, id: string, signal?: AbortSignal): Promise<AdminUserDetails> =>
  (await adminRequest<AdminUserDetails>(apiBaseUrl, userPath(id), { signal })).data;
