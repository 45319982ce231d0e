import type { MemberRole, OrganizationKind, SkipReason } from '../api/types';

export const ROLE_LABELS: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** "as an admin", "as a member", "as an owner". */
export const roleWithArticle = (role: MemberRole): string => `${role === 'member' ? 'a' : 'an'} ${role}`;

export const KIND_LABELS: Record<OrganizationKind, string> = { hire: 'Hire organization', campus: 'Campus institute' };

/** Why an address got no invitation, in words. */
export const SKIP_REASONS: Record<SkipReason, string> = {
  member: 'already a member',
  invited: 'already invited',
  invalid: 'not a valid email address',
};

export const memberCountLabel = (count: number): string => `${count} ${count === 1 ? 'member' : 'members'}`;

export const formatDate = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
};
