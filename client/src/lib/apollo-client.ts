import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { RetryLink } from '@apollo/client/link/retry';
import { RETRY_DELAY_MS, MAX_ATTEMPTS } from '@/lib/api-client';
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
 * The GraphQL client of the account screens (profile, security): POST {apiBase}/graphql with cookies and the bearer
 * header; a network failure (fetch's TypeError) is retried once after 1 s, like REST calls.
 */
export function createApolloClient(apiBaseUrl: string): ApolloClient {
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
