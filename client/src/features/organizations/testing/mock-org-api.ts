import { vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import type { Invitation, InvitationDetails, Membership, Organization } from '../api/types';

type Reply = { status: number; body: unknown };
type Handler = Reply | ((body: unknown) => Reply);
export type Call = { method: string; path: string; body: unknown };

/**
 * Stubs fetch for the organization screens: `routes` maps `"METHOD /path?query"` (the path
 * under /api) to a reply or a function of the request body. A route not listed answers 404.
 * `signedIn` answers /auth/verify with that user, else 401.
 */
export function mockOrgApi(routes: Record<string, Handler>, signedIn: { id: string; name: string; email: string; role: string } | null = me) {
  const calls: Call[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input).replace(/^\/api/, '');
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    if (url === '/auth/verify') {
      return signedIn ? jsonResponse(200, { success: true, data: { user: signedIn } }) : jsonResponse(401, { success: false, message: 'Session expired or unauthorized' });
    }
    calls.push({ method, path: url, body });
    const handler = routes[`${method} ${url}`];
    if (!handler) return jsonResponse(404, { success: false, code: 'NOT_FOUND', message: 'Not found' });
    const reply = typeof handler === 'function' ? handler(body) : handler;
    return jsonResponse(reply.status, reply.body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path) };
}

export const ok = (data: unknown, message?: string, status = 200): Reply => ({ status, body: { success: true, message, data } });
export const fail = (status: number, message: string, code: string, errors?: Record<string, string>): Reply => ({ status, body: { success: false, message, code, errors } });

export const me = { id: 'u1', name: 'Asha Rao', email: 'asha@example.com', role: 'hire' };

export const acme: Organization = {
  id: 'o1',
  name: 'Acme Hiring',
  slug: 'acme-hiring',
  kind: 'hire',
  seatLimit: null,
  memberCount: 3,
  myRole: 'owner',
  createdAt: '2025-01-10T09:00:00Z',
};

export const membership = (id: string, name: string, role: Membership['role']): Membership => ({
  user: { id, name, email: `${name.split(' ')[0]?.toLowerCase()}@example.com` },
  role,
  joinedAt: '2025-01-11T09:00:00Z',
});

export const invitation = (id: string, email: string, role: Invitation['role'] = 'member'): Invitation => ({
  id,
  email,
  role,
  status: 'pending',
  expiresAt: '2025-02-01T09:00:00Z',
  invitedBy: { id: 'u1', name: 'Asha Rao' },
  createdAt: '2025-01-25T09:00:00Z',
});

export const invitationDetails = (overrides: Partial<InvitationDetails> = {}): InvitationDetails => ({
  ...invitation('i1', 'ravi@example.com'),
  organization: { name: 'Acme Hiring', kind: 'hire' },
  ...overrides,
});
