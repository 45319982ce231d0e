import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';

/** How a client's ID tokens are signed (schema.graphql `IdTokenSigningAlg`). */
export type IdTokenSigningAlg = 'RS256' | 'EdDSA';

/** A registered OpenID Connect client (schema.graphql `OAuthClient`); its secret is never read back. */
export type OAuthClient = {
  clientId: string;
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  /** No secret: PKCE alone. */
  public: boolean;
  /** One of the platforms: no consent screen. */
  firstParty: boolean;
  idTokenSignedResponseAlg: IdTokenSigningAlg;
};

export const OAUTH_CLIENT_FIELDS = gql`
  fragment OAuthClientFields on OAuthClient {
    clientId
    name
    redirectUris
    postLogoutRedirectUris
    backchannelLogoutUri
    public
    firstParty
    idTokenSignedResponseAlg
  }
`;

export const OAUTH_CLIENTS_QUERY: TypedDocumentNode<{ oauthClients: OAuthClient[] }, Record<string, never>> = gql`
  query OAuthClients {
    oauthClients {
      ...OAuthClientFields
    }
  }
  ${OAUTH_CLIENT_FIELDS}
`;

/** Every registered client (admins). */
export const useOAuthClients = () => useQuery(OAUTH_CLIENTS_QUERY, { fetchPolicy: 'cache-and-network' });
