import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';

export type AccountSession = {
  id: string;
  browser: string;
  os: string;
  ip: string | null;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
};

export const SESSIONS_QUERY: TypedDocumentNode<{ sessions: AccountSession[] }, Record<string, never>> = gql`
  query Sessions {
    sessions {
      id
      browser
      os
      ip
      signedInAt
      lastActiveAt
      current
    }
  }
`;

export const REVOKE_SESSION_MUTATION: TypedDocumentNode<{ revokeSession: { message: string } }, { id: string }> = gql`
  mutation RevokeSession($id: ID!) {
    revokeSession(id: $id) {
      message
    }
  }
`;

export const REVOKE_OTHER_SESSIONS_MUTATION: TypedDocumentNode<{ revokeOtherSessions: { message: string } }, Record<string, never>> = gql`
  mutation RevokeOtherSessions {
    revokeOtherSessions {
      message
    }
  }
`;

export const useSessions = () => useQuery(SESSIONS_QUERY, { fetchPolicy: 'cache-and-network' });
/** Signing a session out refetches the list, so the screen shows what the server holds. */
export const useRevokeSession = () => useMutation(REVOKE_SESSION_MUTATION, { refetchQueries: [SESSIONS_QUERY] });
export const useRevokeOtherSessions = () => useMutation(REVOKE_OTHER_SESSIONS_MUTATION, { refetchQueries: [SESSIONS_QUERY] });
