import type { SessionUser } from './session-store';

/** Whether the signed-in account is a site admin (roles are matched case-insensitively, SPEC.md section 6). */
export const isAdmin = (user: Pick<SessionUser, 'role'> | null | undefined): boolean => user?.role?.toLowerCase() === 'admin';

/** Whether the account may found organizations: Hire and Campus accounts (API.md), matched case-insensitively. */
export const canFoundOrganizations = (role: string | null | undefined): boolean => ['hire', 'campus'].includes(role?.toLowerCase() ?? '');
