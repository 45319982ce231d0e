import { vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import type { NewsArticle } from '../api/news-item';

type Variables = Record<string, unknown>;

/**
 * Stubs fetch for the news pages: /auth/verify answers for `user` (signed out when null), and
 * each GraphQL operation with `answer(operationName, variables)`: a response, or a rejection
 * for a network failure. Returns the operation names in the order they were asked.
 */
export function stubNewsServer(answer: (operationName: string, variables: Variables) => Response | Promise<Response>, user: Record<string, unknown> | null = null) {
  const operations: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      if (String(input).endsWith('/auth/verify')) {
        return user ? jsonResponse(200, { success: true, data: { user } }) : jsonResponse(401, { success: false, message: 'Session expired or unauthorized' });
      }
      const { operationName, variables = {} } = JSON.parse(String(init?.body)) as { operationName: string; variables?: Variables };
      operations.push(operationName);
      return answer(operationName, variables);
    }),
  );
  return operations;
}

/** A GraphQL answer with one error: its message, `extensions.code` and field errors. */
export const graphQLError = (message: string, code: string, errors?: Record<string, string>) =>
  jsonResponse(200, { data: null, errors: [{ message, extensions: { code, ...(errors ? { errors } : {}) } }] });

/** A news item as the server sends it, with `overrides`. */
export const newsNode = (overrides: Partial<NewsArticle> = {}): NewsArticle & { __typename: 'NewsItem' } => ({
  __typename: 'NewsItem',
  id: 'n1',
  title: 'Campus placements open',
  summary: 'Registrations for the placement season are open.',
  body: 'First.\n\nSecond.',
  imageUrl: null,
  published: true,
  publishedAt: '2025-01-10T09:00:00Z',
  createdAt: '2025-01-10T09:00:00Z',
  author: null,
  ...overrides,
});
