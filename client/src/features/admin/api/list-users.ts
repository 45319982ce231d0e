import { usersPath, type UserFilters } from '../utils/query';
import { adminRequest } from './request';
import type { AdminUser, Page } from './types';

/** GET /admin/users: the accounts matching the filters, a page at a time. */
export const listUsers = async (apiBaseUrl: string, filters: UserFilters, cursor: string | null, signal?: AbortSignal): Promise<Page<AdminUser>> =>
  (await adminRequest<Page<AdminUser>>(apiBaseUrl, usersPath(filters, cursor), { signal })).data;
