import { countryCodeError, phoneError, requiredError } from '@/lib/validation';
import type { ProfileUser } from '../api/profile-user';
import type { UpdateProfileInput } from '../api/update-profile';

export const SOCIAL_KEYS = ['github', 'linkedin', 'instagram', 'twitter', 'facebook'] as const;
export const ADDRESS_KEYS = ['street', 'city', 'state', 'zip', 'country'] as const;
export type SocialKey = (typeof SOCIAL_KEYS)[number];
export type AddressKey = (typeof ADDRESS_KEYS)[number];

/** Form keys are the server's error keys ("website", "social.github", "preferences.theme"). */
export type TextKey = 'name' | 'countryCode' | 'phone' | 'bio' | 'website' | 'born' | `social.${SocialKey}` | `address.${AddressKey}`;
export type ProfileErrorKey = TextKey | 'preferences.theme';

export type ProfileFormValues = {
  text: Record<TextKey, string>;
  notifications: { email: boolean; sms: boolean; push: boolean };
  theme: 'light' | 'dark';
};

/** The stored phone is the country code joined with the digits; the form edits the digits. */
export function phoneDigits(phone: string, countryCode: string): string {
  return countryCode && phone.startsWith(countryCode) ? phone.slice(countryCode.length) : phone.replace(/^\+/, '');
}

export function formValuesFromUser(user: ProfileUser): ProfileFormValues {
  const text = {
    name: user.name,
    countryCode: user.countryCode,
    phone: phoneDigits(user.phone, user.countryCode),
    bio: user.bio ?? '',
    website: user.website ?? '',
    born: user.born ?? '',
  } as Record<TextKey, string>;
  for (const key of SOCIAL_KEYS) text[`social.${key}`] = user.social[key] ?? '';
  for (const key of ADDRESS_KEYS) text[`address.${key}`] = user.address[key] ?? '';
  return {
    text,
    // Picked one by one: the cached object also carries __typename, which inputs refuse.
    notifications: { email: user.preferences.notifications.email, sms: user.preferences.notifications.sms, push: user.preferences.notifications.push },
    theme: user.preferences.theme === 'light' ? 'light' : 'dark',
  };
}

const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** Today's date as YYYY-MM-DD in the user's time zone. */
const today = (now: Date): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** The checks the server makes, with its texts, so most mistakes show before a round trip. */
export function validateProfile(values: ProfileFormValues, now: Date = new Date()): Partial<Record<ProfileErrorKey, string>> {
  const errors: Partial<Record<ProfileErrorKey, string>> = {};
  const { text } = values;
  const name = requiredError(text.name, 'Name');
  if (name) errors.name = name;
  // A phone is optional (an account made with Google has none), but comes whole or not at all.
  if (text.countryCode.trim() !== '' || text.phone.trim() !== '') {
    const countryCode = countryCodeError(text.countryCode);
    if (countryCode) errors.countryCode = countryCode;
    const phone = phoneError(text.phone);
    if (phone) errors.phone = phone;
  }
  const website = text.website.trim();
  if (website !== '' && !isWebUrl(website)) errors.website = 'Website must be a valid http(s) URL';
  const born = text.born.trim();
  if (born !== '') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(born) || Number.isNaN(Date.parse(born))) errors.born = 'Date of birth must be a date in the format YYYY-MM-DD';
    else if (born < '1900-01-01') errors.born = 'Date of birth must be in 1900 or later';
    else if (born >= today(now)) errors.born = 'Date of birth must be a date in the past';
  }
  return errors;
}

const optional = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * The mutation input. Country code and phone go only when changed: an account made with
 * Google has none, and sending the empty pair would be refused.
 */
export function toUpdateInput(values: ProfileFormValues, initial: ProfileFormValues): UpdateProfileInput {
  const { text } = values;
  const input: UpdateProfileInput = {
    name: text.name.trim(),
    bio: optional(text.bio),
    website: optional(text.website),
    born: optional(text.born),
    social: Object.fromEntries(SOCIAL_KEYS.map((key) => [key, optional(text[`social.${key}`])])),
    address: Object.fromEntries(ADDRESS_KEYS.map((key) => [key, optional(text[`address.${key}`])])),
    preferences: { notifications: { ...values.notifications }, theme: values.theme },
  };
  if (text.countryCode.trim() !== initial.text.countryCode || text.phone.trim() !== initial.text.phone) {
    input.countryCode = text.countryCode.trim();
    input.phone = `${text.countryCode.trim()}${text.phone.trim()}`;
  }
  return input;
}
