import type { MemberRole, OrganizationKind, UserRole, UserStatus } from '../api/types';

export const USER_ROLES: readonly UserRole[] = ['career', 'campus', 'hire', 'admin'];
export const USER_STATUSES: readonly UserStatus[] = ['pending', 'active', 'suspended'];

export const ROLE_LABELS: Record<UserRole, string> = { career: 'Career', campus: 'Campus', hire: 'Hire', admin: 'Admin' };
export const STATUS_LABELS: Record<UserStatus, string> = { pending: 'Pending', active: 'Active', suspended: 'Suspended' };
export const KIND_LABELS: Record<OrganizationKind, string> = { hire: 'Hire', campus: 'Campus' };
export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** A label for a value the server may one day widen: the known word, else the value itself. */
export const labelOf = <K extends string>(labels: Record<K, string>, value: string): string => (labels as Record<string, string>)[value] ?? value;

const PROVIDER_LABELS: Record<string, string> = { google: 'Google', linkedin: 'LinkedIn', microsoft: 'Microsoft', github: 'GitHub' };
export const providerLabel = (provider: string): string => PROVIDER_LABELS[provider] ?? provider;

/** A date and time in the reader's locale ("Mar 1, 2025, 9:30 AM"); the raw text if it is not one. */
export function formatDateTime(iso: string | null | undefined, never = 'Never'): string {
  if (!iso) return never;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** An audit event's detail as one line: text as it is, an object as `key: value` pairs. */
export function describeDetail(detail: unknown): string {
  if (detail === null || detail === undefined || detail === '') return '';
  if (typeof detail === 'string') return detail;
  if (typeof detail !== 'object' || Array.isArray(detail)) return JSON.stringify(detail);
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** "1 member" / "3 members". */
export const countLabel = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
