import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';

export type AuthorizedApplication = { clientId: string; name: string; scopes: string[]; since: string };

export const APPLICATIONS_QUERY: TypedDocumentNode<{ authorizedApplications: AuthorizedApplication[] }, Record<string, never>> = gql`
  query AuthorizedApplications {
    authorizedApplications {
      clientId
      name
      scopes
      since
    }
  }
`;

export const REVOKE_APPLICATION_MUTATION: TypedDocumentNode<{ revokeApplication: { message: string } }, { clientId: string }> = gql`
  mutation RevokeApplication($clientId: ID!) {
    revokeApplication(clientId: $clientId) {
      message
    }
  }
`;

export const useApplications = () => useQuery(APPLICATIONS_QUERY);
export const useRevokeApplication = () => useMutation(REVOKE_APPLICATION_MUTATION, { refetchQueries: [APPLICATIONS_QUERY], awaitRefetchQueries: true });
