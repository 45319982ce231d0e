import { describe, expect, it } from 'vitest';
import type { ProfileUser } from '../api/profile-user';
import { sampleUser } from '../testing/sample-user';
import { formValuesFromUser, phoneDigits, toUpdateInput, validateProfile } from './profile-form';


describe('profile form', () => {
  it('edits the phone digits without the country code', () => {
    expect(phoneDigits('+919876543210', '+91')).toBe('9876543210');
    expect(phoneDigits('', '')).toBe('');
    const values = formValuesFromUser(sampleUser);
    expect(values.text.phone).toBe('9876543210');
    expect(values.text['social.github']).toBe('asha');
    expect(values.text['address.street']).toBe('');
  });

  it('keeps __typename out of the notifications it copies', () => {
    const cached = { ...sampleUser, preferences: { theme: 'light', notifications: { __typename: 'Notifications', email: false, sms: true, push: false } } } as ProfileUser;
    expect(formValuesFromUser(cached).notifications).toEqual({ email: false, sms: true, push: false });
  });

  it('checks the fields the server checks, with its texts', () => {
    const values = formValuesFromUser(sampleUser);
    const now = new Date(2026, 10, 22);
    expect(validateProfile(values, now)).toEqual({});
    const bad = { ...values, text: { ...values.text, name: ' ', website: 'ftp://x', born: '2026-11-22', countryCode: '91', phone: '12' } };
    expect(validateProfile(bad, now)).toEqual({
      name: 'Name is required',
      website: 'Website must be a valid http(s) URL',
      born: 'Date of birth must be a date in the past',
      countryCode: 'Invalid code (e.g., +91)',
      phone: 'Enter 6-14 digits',
    });
    expect(validateProfile({ ...values, text: { ...values.text, born: '1899-12-31' } }, now)).toEqual({ born: 'Date of birth must be in 1900 or later' });
  });

  it('sends empty optional fields as null and the phone only when it changed', () => {
    const initial = formValuesFromUser(sampleUser);
    const edited = { ...initial, text: { ...initial.text, website: '  ', 'address.city': 'Mumbai' }, theme: 'light' as const };
    const input = toUpdateInput(edited, initial);
    expect(input).toMatchObject({ name: 'Asha Rao', website: null, born: '1995-04-12', preferences: { theme: 'light', notifications: { email: true, sms: false, push: true } } });
    expect(input.address).toEqual({ street: null, city: 'Mumbai', state: null, zip: null, country: 'India' });
    expect(input).not.toHaveProperty('phone');
    const newPhone = toUpdateInput({ ...initial, text: { ...initial.text, phone: '9000000001' } }, initial);
    expect(newPhone).toMatchObject({ countryCode: '+91', phone: '+919000000001' });
  });
});
