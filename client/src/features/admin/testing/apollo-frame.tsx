import { ApolloProvider } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { useSharedApolloClient } from '@/lib/apollo-client';

/** The console's GraphQL client, as app/routes/admin-console.tsx provides it to every section. */
export function ApolloFrame({ children }: { children: ReactNode }) {
  return <ApolloProvider client={useSharedApolloClient()}>{children}</ApolloProvider>;
}
