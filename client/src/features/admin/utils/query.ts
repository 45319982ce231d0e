/** How many rows each "Load more" asks for. */
export const PAGE_SIZE = 50;

type QueryValue = string | number | null | undefined;

/** `?a=1&b=2` from the values that are set (not undefined, null or blank), in the order given; '' when none is. */
export function queryString(params: Record<string, QueryValue>): string {
  const entries = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null && String(entry[1]).trim() !== '')
    .map(([key, value]) => [key, String(value).trim()]);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

export type UserFilters = { query: string; role: string; status: string };

export const NO_USER_FILTERS: UserFilters = { query: '', role: '', status: '' };

/** The users list's filters as the page address keeps them (`?query&role&status`). */
export const userFiltersFrom = (search: URLSearchParams): UserFilters => ({
  query: search.get('query') ?? '',
  role: search.get('role') ?? '',
  status: search.get('status') ?? '',
});

/** GET /admin/users with the filters that are set, a page size and the cursor of the page after. */
export const usersPath = (filters: UserFilters, cursor: string | null = null): string =>
  `/admin/users${queryString({ query: filters.query, role: filters.role, status: filters.status, limit: PAGE_SIZE, cursor })}`;

/** The audit log's filters as typed: `from` and `to` are `datetime-local` values (local time). */
export type AuditFilters = { userId: string; kind: string; from: string; to: string };

export const NO_AUDIT_FILTERS: AuditFilters = { userId: '', kind: '', from: '', to: '' };

export const auditFiltersFrom = (search: URLSearchParams): AuditFilters => ({
  userId: search.get('userId') ?? '',
  kind: search.get('kind') ?? '',
  from: search.get('from') ?? '',
  to: search.get('to') ?? '',
});

/**
 * A `datetime-local` value (`2025-03-01T09:30`, the browser's time zone) as RFC 3339 in UTC,
 * as the server reads `from` and `to`; undefined when blank or not a time.
 */
export function localToRfc3339(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace(/\.000Z$/, 'Z');
}

/** The filters as the audit calls take them: ids and kinds as typed, times in RFC 3339. */
const auditParams = (filters: AuditFilters) => ({
  userId: filters.userId,
  kind: filters.kind,
  from: localToRfc3339(filters.from),
  to: localToRfc3339(filters.to),
});

/** GET /admin/audit, newest first, with the filters that are set. */
export const auditPath = (filters: AuditFilters, cursor: string | null = null): string =>
  `/admin/audit${queryString({ ...auditParams(filters), limit: PAGE_SIZE, cursor })}`;

/**
 * The CSV download of the same filtered log: a plain link, since the browser sends the
 * session cookie with it (every page of it, no limit or cursor).
 */
export const auditCsvHref = (apiBaseUrl: string, filters: AuditFilters): string => `${apiBaseUrl}/admin/audit.csv${queryString(auditParams(filters))}`;

/** GET /admin/orgs, by name, with the search when there is one. */
export const organizationsPath = (query: string, cursor: string | null = null): string =>
  `/admin/orgs${queryString({ query, limit: PAGE_SIZE, cursor })}`;
