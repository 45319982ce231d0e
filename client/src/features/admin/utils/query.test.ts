import { describe, expect, it } from 'vitest';
import { auditCsvHref, auditFiltersFrom, auditPath, localToRfc3339, NO_AUDIT_FILTERS, NO_USER_FILTERS, organizationsPath, queryString, userFiltersFrom, usersPath } from './query';

describe('queryString', () => {
  it('keeps the values that are set, trimmed and escaped, in order', () => {
    expect(queryString({ query: '  ada lovelace ', role: '', status: undefined, cursor: null, limit: 50 })).toBe('?query=ada+lovelace&limit=50');
    expect(queryString({ query: 'a&b=c' })).toBe('?query=a%26b%3Dc');
  });

  it('is empty when nothing is set', () => {
    expect(queryString({ query: '   ', role: '' })).toBe('');
  });
});

describe('users filters', () => {
  it('become the list call, with the page size and the cursor of the next page', () => {
    expect(usersPath(NO_USER_FILTERS)).toBe('/admin/users?limit=50');
    expect(usersPath({ query: 'mina', role: 'career', status: 'suspended' }, 'c2')).toBe('/admin/users?query=mina&role=career&status=suspended&limit=50&cursor=c2');
  });

  it('are read back from the page address', () => {
    expect(userFiltersFrom(new URLSearchParams('query=mina&status=active'))).toEqual({ query: 'mina', role: '', status: 'active' });
  });
});

describe('audit filters', () => {
  it('send times as RFC 3339 in UTC, read in the browser’s time zone', () => {
    const local = '2025-03-01T09:30';
    expect(localToRfc3339(local)).toBe(new Date(local).toISOString().replace('.000Z', 'Z'));
    expect(localToRfc3339('')).toBeUndefined();
    expect(localToRfc3339('not a time')).toBeUndefined();
  });

  it('become the list call and the CSV link with the same filters (no limit or cursor in the download)', () => {
    const filters = { userId: 'u1', kind: 'sign_in', from: '2025-03-01T09:30', to: '' };
    const from = encodeURIComponent(new Date('2025-03-01T09:30').toISOString().replace('.000Z', 'Z'));
    expect(auditPath(filters, 'next')).toBe(`/admin/audit?userId=u1&kind=sign_in&from=${from}&limit=50&cursor=next`);
    expect(auditCsvHref('/api', filters)).toBe(`/api/admin/audit.csv?userId=u1&kind=sign_in&from=${from}`);
    expect(auditCsvHref('/api', NO_AUDIT_FILTERS)).toBe('/api/admin/audit.csv');
  });

  it('are read back from the page address', () => {
    expect(auditFiltersFrom(new URLSearchParams('userId=u1&to=2025-03-02T00%3A00'))).toEqual({ userId: 'u1', kind: '', from: '', to: '2025-03-02T00:00' });
  });
});

describe('organizations search', () => {
  it('becomes the list call', () => {
    expect(organizationsPath('')).toBe('/admin/orgs?limit=50');
    expect(organizationsPath('acme', 'c1')).toBe('/admin/orgs?query=acme&limit=50&cursor=c1');
  });
});
