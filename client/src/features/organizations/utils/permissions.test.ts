import { describe, expect, it } from 'vitest';
import { canDeleteOrganization, canManageOrganization, canRemoveMember, roleChoices } from './permissions';

const owner = { role: 'owner' as const };
const admin = { role: 'admin' as const };
const member = { role: 'member' as const };

describe('what a role may do in an organization', () => {
  it('lets owners and admins manage it, and only owners delete it', () => {
    expect([canManageOrganization('owner'), canManageOrganization('admin'), canManageOrganization('member'), canManageOrganization(null)]).toEqual([true, true, false, false]);
    expect([canDeleteOrganization('owner'), canDeleteOrganization('admin'), canDeleteOrganization('member')]).toEqual([true, false, false]);
  });

  it('gives owners every role, admins member or admin but never over an owner, members none', () => {
    expect(roleChoices('owner', owner)).toEqual(['owner', 'admin', 'member']);
    expect(roleChoices('admin', member)).toEqual(['admin', 'member']);
    expect(roleChoices('admin', admin)).toEqual(['admin', 'member']);
    expect(roleChoices('admin', owner)).toEqual([]);
    expect(roleChoices('member', member)).toEqual([]);
    expect(roleChoices(null, member)).toEqual([]);
  });

  it('lets owners remove anyone else, admins anyone else but owners, and nobody themself', () => {
    expect(canRemoveMember('owner', owner, false)).toBe(true);
    expect(canRemoveMember('owner', member, true)).toBe(false);
    expect(canRemoveMember('admin', member, false)).toBe(true);
    expect(canRemoveMember('admin', admin, false)).toBe(true);
    expect(canRemoveMember('admin', owner, false)).toBe(false);
    expect(canRemoveMember('member', member, false)).toBe(false);
  });
});
