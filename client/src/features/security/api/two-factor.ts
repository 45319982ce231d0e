import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { ACCOUNT_QUERY } from './delete-account';

export type TwoFactorSetup = { secret: string; otpauthUri: string };

export const START_TWO_FACTOR_MUTATION: TypedDocumentNode<{ startTwoFactorSetup: TwoFactorSetup }, Record<string, never>> = gql`
  mutation StartTwoFactorSetup {
    startTwoFactorSetup {
      secret
      otpauthUri
    }
  }
`;

export const CONFIRM_TWO_FACTOR_MUTATION: TypedDocumentNode<
  { confirmTwoFactor: { message: string; recoveryCodes: string[] } },
  { input: { code: string } }
> = gql`
  mutation ConfirmTwoFactor($input: ConfirmTwoFactorInput!) {
    confirmTwoFactor(input: $input) {
      message
      recoveryCodes
    }
  }
`;

export const DISABLE_TWO_FACTOR_MUTATION: TypedDocumentNode<{ disableTwoFactor: { message: string } }, { input: { password?: string; code: string } }> = gql`
  mutation DisableTwoFactor($input: DisableTwoFactorInput!) {
    disableTwoFactor(input: $input) {
      message
    }
  }
`;

// Turning it on or off changes `me.twoFactorEnabled`: the account query is fetched again.
const refetch = { refetchQueries: [ACCOUNT_QUERY], awaitRefetchQueries: true };

export const useStartTwoFactor = () => useMutation(START_TWO_FACTOR_MUTATION);
export const useConfirmTwoFactor = () => useMutation(CONFIRM_TWO_FACTOR_MUTATION, refetch);
export const useDisableTwoFactor = () => useMutation(DISABLE_TWO_FACTOR_MUTATION, refetch);
