import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';

export const DELETE_USER_MUTATION: TypedDocumentNode<{ deleteUser: { message: string } }, { id: string }> = gql`
  mutation DeleteUser($id: ID!) {
    deleteUser(id: $id) {
      message
    }
  }
`;

export const useDeleteUser = () => useMutation(DELETE_USER_MUTATION);
