import { gql, type TypedDocumentNode } from '@apollo/client';

/** "Confirm it's you": the password, or a second-factor code, makes this session fresh for ten minutes. */
export const REAUTHENTICATE_MUTATION: TypedDocumentNode<
  { reauthenticate: { message: string } },
  { input: { password?: string; code?: string } }
> = gql`
  mutation Reauthenticate($input: ReauthenticateInput!) {
    reauthenticate(input: $input) {
      message
    }
  }
`;
