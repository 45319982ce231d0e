import type { ProfileUser } from '../api/profile-user';

/** A complete account for the profile tests. */
export const sampleUser: ProfileUser = {
  id: 'u1',
  name: 'Asha Rao',
  email: 'asha@example.com',
  countryCode: '+91',
  phone: '+919876543210',
  bio: null,
  website: 'https://asha.example.com',
  born: '1995-04-12',
  role: 'career',
  status: 'active',
  emailVerified: true,
  twoFactorEnabled: false,
  social: { github: 'asha', linkedin: null, instagram: null, twitter: null, facebook: null },
  address: { street: null, city: 'Pune', state: null, zip: null, country: 'India' },
  preferences: { notifications: { email: true, sms: false, push: true }, theme: 'dark' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
