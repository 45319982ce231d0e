import type { MemberRole, Membership } from '../api/types';

/**
 * What the caller's role lets them do (API.md); the server enforces the same rules, so this
 * only decides which controls to show.
 */
export const canManageOrganization = (myRole: MemberRole | null): boolean => myRole === 'owner' || myRole === 'admin';

export const canDeleteOrganization = (myRole: MemberRole | null): boolean => myRole === 'owner';

/** The roles the caller may give `member`: every one for owners, member or admin for org admins (not over an owner). */
export function roleChoices(myRole: MemberRole | null, member: Pick<Membership, 'role'>): MemberRole[] {
  if (myRole === 'owner') return ['owner', 'admin', 'member'];
  if (myRole === 'admin' && member.role !== 'owner') return ['admin', 'member'];
  return [];
}

/** Owners remove anyone else; org admins anyone else but an owner. Oneself, one leaves instead. */
export function canRemoveMember(myRole: MemberRole | null, member: Pick<Membership, 'role'>, isSelf: boolean): boolean {
  if (isSelf) return false;
  return myRole === 'owner' || (myRole === 'admin' && member.role !== 'owner');
}
