import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { RetryLink } from '@apollo/client/link/retry';
import { useSyncExternalStore } from 'react';
import { RETRY_DELAY_MS, MAX_ATTEMPTS } from '@/lib/api-client';
import { useConfig } from '@/lib/config-context';
import { onAccountChange } from '@/lib/session-store';
import { getStoredToken } from '@/lib/token-storage';

/** Adds the stored bearer token to each operation, read when the operation starts. */
const bearerLink = new ApolloLink((operation, forward) => {
  const token = getStoredToken();
  if (token) {
    operation.setContext(({ headers }: { headers?: Record<string, string> }) => ({
      headers: { ...headers, Authorization: `Bearer ${token}` },
    }));
  }
  return forward(operation);
});

/**
 * POST {apiBase}/graphql with cookies and the bearer header; a network failure (fetch's
 * TypeError) is retried once after 1 s, like REST calls.
 */
function createApolloClient(apiBaseUrl: string): ApolloClient {
  return new ApolloClient({
    link: ApolloLink.from([
      new RetryLink({
        delay: { initial: RETRY_DELAY_MS, max: RETRY_DELAY_MS, jitter: false },
        attempts: { max: MAX_ATTEMPTS, retryIf: (error: unknown) => error instanceof TypeError },
      }),
      bearerLink,
      new HttpLink({ uri: `${apiBaseUrl}/graphql`, credentials: 'include' }),
    ]),
    cache: new InMemoryCache(),
  });
}

let shared: ApolloClient | undefined;
const listeners = new Set<() => void>();

function sharedClient(apiBaseUrl: string): ApolloClient {
  shared ??= createApolloClient(apiBaseUrl);
  return shared;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The cache holds one account's data at a time. When the account changes (a sign-in, a
// sign-out, an expired session; or a reset, so each prerendered page and each test starts
// empty) the old client is emptied and the pages on screen move to a new one in the same
// render that shows the new session. Nothing of the old account stays on screen, and no query
// of the old account is sent again as the new one or as a visitor, which `resetStore` would
// do. `clearStore` alone would leave the queries on screen cut off from the cache ("Load more"
// on /news would then fail).
onAccountChange(() => {
  const old = shared;
  shared = undefined;
  listeners.forEach((listener) => listener());
  void old?.clearStore();
});

/**
 * The one GraphQL client every feature (profile, security, news) shares, so one cache serves
 * every page. It is created on first use: this module and Apollo load with the first page that
 * needs them, never with the home page.
 */
export function useSharedApolloClient(): ApolloClient {
  const { apiBaseUrl } = useConfig();
  const client = () => sharedClient(apiBaseUrl);
  return useSyncExternalStore(subscribe, client, client);
}
