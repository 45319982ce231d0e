import { gql } from '@apollo/client';

/** The account as its owner sees it (API.md `User`). */
export type ProfileUser = {
  id: string;
  name: string;
  email: string;
  countryCode: string;
  phone: string;
  bio: string | null;
  website: string | null;
  born: string | null;
  role: string;
  status: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  social: { github: string | null; linkedin: string | null; instagram: string | null; twitter: string | null; facebook: string | null };
  address: { street: string | null; city: string | null; state: string | null; zip: string | null; country: string | null };
  preferences: { notifications: { email: boolean; sms: boolean; push: boolean }; theme: string };
  createdAt: string;
  updatedAt: string;
};

export const PROFILE_USER_FIELDS = gql`
  fragment ProfileUserFields on User {
    id
    name
    email
    countryCode
    phone
    bio
    website
    born
    role
    status
    emailVerified
    twoFactorEnabled
    social {
      github
      linkedin
      instagram
      twitter
      facebook
    }
    address {
      street
      city
      state
      zip
      country
    }
    preferences {
      notifications {
        email
        sms
        push
      }
      theme
    }
    createdAt
    updatedAt
  }
`;
