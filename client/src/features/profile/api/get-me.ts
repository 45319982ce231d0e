import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { PROFILE_USER_FIELDS, type ProfileUser } from './profile-user';

export const ME_QUERY: TypedDocumentNode<{ me: ProfileUser }, Record<string, never>> = gql`
  query Me {
    me {
      ...ProfileUserFields
    }
  }
  ${PROFILE_USER_FIELDS}
`;

/** The signed-in user's profile (GraphQL `me`). */
export const useMe = () => useQuery(ME_QUERY);
