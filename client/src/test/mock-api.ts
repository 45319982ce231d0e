import { vi } from 'vitest';
import { jsonResponse } from './render';

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * Stubs the global fetch: each call to `path` takes the next queued reply for it (the last
 * one repeats). Unknown paths answer 401, like a signed-out /auth/verify.
 */
export function mockApi(replies: Record<string, Reply | Reply[]>) {
  const queues = new Map(Object.entries(replies).map(([path, reply]) => [path, Array.isArray(reply) ? [...reply] : [reply]]));
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^\/api/, '');
    const queue = queues.get(path);
    const reply = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (!reply) return jsonResponse(401, { success: false, message: 'Session expired or unauthorized' });
    return jsonResponse(reply.status, reply.body, reply.headers);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (path: string) =>
    fetchMock.mock.calls
      .filter(([input]) => String(input).replace(/^\/api/, '') === path)
      .map(([, init]) => (init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined));
  return { fetchMock, calls };
}
