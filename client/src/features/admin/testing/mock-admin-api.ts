import { vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import type { AdminOrganization, AdminUser, AdminUserDetails, AuditEvent } from '../api/types';

type Reply = { status: number; body: unknown };
type Handler = Reply | ((body: unknown) => Reply);
export type Call = { method: string; path: string; body: unknown };

/** A GraphQL operation's answer, by operation name. */
type GraphQLHandler = (variables: Record<string, unknown>) => unknown;

/** `Reauthenticate` as the server answers a right password: thanks, after `confirmed` runs. */
export const reauthenticates =
  (confirmed: () => void): GraphQLHandler =>
  () => {
    confirmed();
    return { reauthenticate: { __typename: 'MessagePayload', message: "Thanks, it's you" } };
  };

/**
 * Stubs fetch for the console: `routes` maps `"METHOD /path?query"` (under /api) to a reply or
 * a function of the request body, and `graphql` maps operation names to their `data` (or to
 * `{errors}`). A route not listed answers 404. `signedIn` answers /auth/verify, else 401.
 */
export function mockAdminApi(
  routes: Record<string, Handler>,
  { signedIn = admin, graphql = {} }: { signedIn?: Record<string, unknown> | null; graphql?: Record<string, GraphQLHandler> } = {},
) {
  const calls: Call[] = [];
  const operations: { operationName: string; variables: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input).replace(/^\/api/, '');
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    if (url === '/auth/verify') {
      return signedIn ? jsonResponse(200, { success: true, data: { user: signedIn } }) : jsonResponse(401, { success: false, message: 'Session expired or unauthorized' });
    }
    if (url === '/graphql') {
      const { operationName, variables = {} } = body as { operationName: string; variables?: Record<string, unknown> };
      operations.push({ operationName, variables });
      const handler = graphql[operationName];
      if (!handler) return jsonResponse(200, { data: null, errors: [{ message: `No mock for ${operationName}` }] });
      const answer = handler(variables);
      return jsonResponse(200, typeof answer === 'object' && answer !== null && 'errors' in answer ? { data: null, ...answer } : { data: answer });
    }
    calls.push({ method, path: url, body });
    const handler = routes[`${method} ${url}`];
    if (!handler) return jsonResponse(404, { success: false, code: 'NOT_FOUND', message: 'There is no API endpoint at this path' });
    const reply = typeof handler === 'function' ? handler(body) : handler;
    return jsonResponse(reply.status, reply.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    calls,
    operations,
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

export const ok = (data: unknown, message?: string, status = 200): Reply => ({ status, body: { success: true, message, data } });
export const fail = (status: number, message: string, code: string, errors?: Record<string, string>): Reply => ({ status, body: { success: false, message, code, errors } });

export const admin = { id: 'a1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', status: 'active', twoFactorEnabled: false };

export const adminUser = (overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: 'u1',
  name: 'Mina Member',
  email: 'mina@example.com',
  role: 'career',
  status: 'active',
  emailVerified: true,
  twoFactorEnabled: false,
  createdAt: '2025-01-10T09:00:00Z',
  lastSignInAt: '2025-02-01T10:30:00Z',
  organizations: 1,
  ...overrides,
});

export const auditEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'e1',
  at: '2025-02-01T10:30:00Z',
  kind: 'sign_in',
  userId: 'u1',
  actorId: 'u1',
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0',
  detail: null,
  ...overrides,
});

export const userDetails = (overrides: Partial<AdminUserDetails> = {}): AdminUserDetails => ({
  user: adminUser(),
  sessions: [{ id: 's1', browser: 'Firefox', os: 'Linux', ip: '203.0.113.7', signedInAt: '2025-02-01T10:30:00Z', lastActiveAt: '2025-02-01T11:00:00Z' }],
  organizations: [{ id: 'o1', name: 'Acme Hiring', kind: 'hire', role: 'member' }],
  identities: [{ provider: 'github', email: 'mina@example.com', linkedAt: '2025-01-11T09:00:00Z' }],
  passkeys: [{ id: 'p1', name: 'Laptop', createdAt: '2025-01-12T09:00:00Z', lastUsedAt: null }],
  audit: [auditEvent()],
  ...overrides,
});

export const organization = (overrides: Partial<AdminOrganization> = {}): AdminOrganization => ({
  id: 'o1',
  name: 'Acme Hiring',
  slug: 'acme-hiring',
  kind: 'hire',
  seatLimit: null,
  memberCount: 3,
  myRole: null,
  createdAt: '2025-01-10T09:00:00Z',
  ...overrides,
});
