import type { SessionUser } from '@/lib/session-store';

/** Header fallbacks from SPEC.md section 2. */
export const displayName = (user: SessionUser): string => user.name?.trim() || 'User';
export const displayEmail = (user: SessionUser): string => user.email?.trim() || 'No email';
export const initialOf = (user: SessionUser): string => displayName(user).charAt(0).toUpperCase();
