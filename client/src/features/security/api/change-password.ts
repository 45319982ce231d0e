import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';

export type ChangePasswordInput = { currentPassword?: string; password: string; confirmPassword: string };

export const CHANGE_PASSWORD_MUTATION: TypedDocumentNode<{ changePassword: { message: string } }, { input: ChangePasswordInput }> = gql`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      message
    }
  }
`;

export const useChangePassword = () => useMutation(CHANGE_PASSWORD_MUTATION);
