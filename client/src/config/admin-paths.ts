/** `path` with the query values that are set, in the order given. */
function withQuery(path: string, query: Record<string, string | undefined>): string {
  const entries = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * The admin console's routes (issue 24), beneath `paths.admin` (`/admin/*`). They live apart
 * from paths.ts because only the console and the account menus, which load on demand, need
 * them: the home page's code carries none. `path` is relative to /admin, for the console's
 * nested routes.
 */
export const adminPaths = {
  users: { path: 'users', getHref: () => '/admin/users' },
  user: { path: 'users/:id', getHref: (id: string) => `/admin/users/${encodeURIComponent(id)}` },
  organizations: { path: 'organizations', getHref: () => '/admin/organizations' },
  /** `userId` opens the log filtered to one account. */
  audit: { path: 'audit', getHref: (query: { userId?: string } = {}) => withQuery('/admin/audit', query) },
  applications: { path: 'applications', getHref: () => '/admin/applications' },
  news: { path: 'news', getHref: () => '/admin/news' },
} as const;
