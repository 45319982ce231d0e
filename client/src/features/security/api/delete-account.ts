import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';

/** Who is signed in: the id to delete, the email the person must type to confirm, and two-factor. */
export const ACCOUNT_QUERY: TypedDocumentNode<{ me: { id: string; email: string; twoFactorEnabled: boolean } }, Record<string, never>> = gql`
  query SecurityAccount {
    me {
      id
      email
      twoFactorEnabled
    }
  }
`;

export const DELETE_ACCOUNT_MUTATION: TypedDocumentNode<{ deleteUser: { message: string } }, { id: string }> = gql`
  mutation DeleteAccount($id: ID!) {
    deleteUser(id: $id) {
      message
    }
  }
`;

export const useAccount = () => useQuery(ACCOUNT_QUERY);
export const useDeleteAccount = () => useMutation(DELETE_ACCOUNT_MUTATION);
