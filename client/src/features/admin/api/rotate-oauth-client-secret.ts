import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import type { OAuthClientSecret } from './create-oauth-client';
import { OAUTH_CLIENT_FIELDS } from './oauth-clients';

/** A new secret for a confidential client, shown once; the old one stops working. */
export const ROTATE_OAUTH_CLIENT_SECRET_MUTATION: TypedDocumentNode<{ rotateOAuthClientSecret: OAuthClientSecret }, { clientId: string }> = gql`
  mutation RotateOAuthClientSecret($clientId: ID!) {
    rotateOAuthClientSecret(clientId: $clientId) {
      client {
        ...OAuthClientFields
      }
      clientSecret
    }
  }
  ${OAUTH_CLIENT_FIELDS}
`;

export const useRotateOAuthClientSecret = () => useMutation(ROTATE_OAUTH_CLIENT_SECRET_MUTATION);
