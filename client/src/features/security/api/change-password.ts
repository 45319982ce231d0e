import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';

import { SESSIONS_QUERY } from './sessions';

export type ChangePasswordInput = { currentPassword?: string; password: string; confirmPassword: string };

export const CHANGE_PASSWORD_MUTATION: TypedDocumentNode<{ changePassword: { message: string } }, { input: ChangePasswordInput }> = gql`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      message
    }
  }
`;

/** A new password signs every other device out: the sessions list is fetched again to show it. */
export const useChangePassword = () => useMutation(CHANGE_PASSWORD_MUTATION, { refetchQueries: [SESSIONS_QUERY] });
