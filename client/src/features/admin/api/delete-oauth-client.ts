import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { OAUTH_CLIENTS_QUERY } from './oauth-clients';

/** Deletes a client with its tokens and consents. */
export const DELETE_OAUTH_CLIENT_MUTATION: TypedDocumentNode<{ deleteOAuthClient: { message: string } }, { clientId: string }> = gql`
  mutation DeleteOAuthClient($clientId: ID!) {
    deleteOAuthClient(clientId: $clientId) {
      message
    }
  }
`;

export const useDeleteOAuthClient = () => useMutation(DELETE_OAUTH_CLIENT_MUTATION, { refetchQueries: [OAUTH_CLIENTS_QUERY], awaitRefetchQueries: true });
