import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { PROFILE_USER_FIELDS, type ProfileUser } from './profile-user';

type Optional = string | null;

/** A partial update: a field left out stays as it is; null clears an optional field. */
export type UpdateProfileInput = {
  name?: string;
  countryCode?: string;
  phone?: string;
  bio?: Optional;
  website?: Optional;
  born?: Optional;
  social?: Partial<Record<keyof ProfileUser['social'], Optional>>;
  address?: Partial<Record<keyof ProfileUser['address'], Optional>>;
  preferences?: { notifications?: Partial<ProfileUser['preferences']['notifications']>; theme?: string };
};

export const UPDATE_PROFILE_MUTATION: TypedDocumentNode<
  { updateProfile: { message: string; user: ProfileUser } },
  { input: UpdateProfileInput }
> = gql`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      message
      user {
        ...ProfileUserFields
      }
    }
  }
  ${PROFILE_USER_FIELDS}
`;

/** The returned user has the same id, so Apollo's cache (and the Me query) update from it. */
export const useUpdateProfile = () => useMutation(UPDATE_PROFILE_MUTATION);
