import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { OAUTH_CLIENT_FIELDS, OAUTH_CLIENTS_QUERY, type IdTokenSigningAlg, type OAuthClient } from './oauth-clients';

export type CreateOAuthClientInput = { name: string; redirectUris: string[]; public: boolean; firstParty: boolean; idTokenSignedResponseAlg: IdTokenSigningAlg };

/** The client and, this once, its secret (null for a public client). */
export type OAuthClientSecret = { client: OAuthClient; clientSecret: string | null };

export const CREATE_OAUTH_CLIENT_MUTATION: TypedDocumentNode<{ createOAuthClient: OAuthClientSecret }, { input: CreateOAuthClientInput }> = gql`
  mutation CreateOAuthClient($input: CreateOAuthClientInput!) {
    createOAuthClient(input: $input) {
      client {
        ...OAuthClientFields
      }
      clientSecret
    }
  }
  ${OAUTH_CLIENT_FIELDS}
`;

export const useCreateOAuthClient = () => useMutation(CREATE_OAUTH_CLIENT_MUTATION, { refetchQueries: [OAUTH_CLIENTS_QUERY], awaitRefetchQueries: true });
