import { describe, expect, it } from 'vitest';
import {
  codeError,
  confirmPasswordError,
  countryCodeError,
  emailError,
  newPasswordError,
  otpError,
  passwordError,
  phoneError,
  requiredError,
  strongPasswordError,
} from './validation';

describe('the shared field rules', () => {
  it('names the field a blank name is missing', () => {
    expect(requiredError('  ', 'Full Name')).toBe('Full Name is required');
    expect(requiredError('', 'Name')).toBe('Name is required');
    expect(requiredError(' Asha ', 'Name')).toBeUndefined();
  });

  it('wants an email of the form name@domain.tld', () => {
    expect(emailError(' ')).toBe('Email is required');
    for (const bad of ['asha', 'asha@', 'asha@example', 'as ha@example.com']) expect(emailError(bad)).toBe('Invalid email format');
    // Past what mail carries: a 65-character name, a 64-character label, a number for a domain.
    for (const bad of [`${'a'.repeat(65)}@example.com`, `asha@${'b'.repeat(64)}.com`, 'asha@1.2.3.4', 'asha@example.123']) {
      expect(emailError(bad)).toBe('Invalid email format');
    }
    expect(emailError(`${'a'.repeat(64)}@${'b'.repeat(63)}.co`)).toBeUndefined();
    // What the server refuses, the form refuses first: non-ASCII, quoted names, IP literals,
    // dots out of place, a label with a leading hyphen, an address past 255 characters.
    const refused = ['jürgen@exämple.com', '"a b"@example.com', 'a@[127.0.0.1]', 'a..b@example.com', '.a@example.com', 'a@-x.com', 'a@x_y.com', `${'a'.repeat(250)}@x.com`];
    for (const bad of refused) expect(emailError(bad)).toBe('Invalid email format');
    for (const good of ["o'brien+jobs@mail.example.co.in", 'A.B@Example.COM', 'x@a-b.io']) expect(emailError(good)).toBeUndefined();
    expect(emailError(' asha@example.com ')).toBeUndefined();
  });

  it('wants a country code of a plus sign and 1 to 3 digits', () => {
    expect(countryCodeError(' ')).toBe('Country code is required');
    for (const bad of ['91', '+', '+1234', '+9a']) expect(countryCodeError(bad)).toBe('Invalid code (e.g., +91)');
    for (const good of ['+1', '+44', ' +971 ']) expect(countryCodeError(good)).toBeUndefined();
  });

  it('wants 6 to 14 digits of phone', () => {
    expect(phoneError('')).toBe('Phone number is required');
    for (const bad of ['12345', '123456789012345', '98765-4321', '+919876543210']) expect(phoneError(bad)).toBe('Enter 6-14 digits');
    for (const good of ['123456', ' 12345678901234 ']) expect(phoneError(good)).toBeUndefined();
  });

  it('only requires the password of a sign-in', () => {
    expect(passwordError('')).toBe('Password is required');
    expect(passwordError('x')).toBeUndefined();
  });

  it('wants at least 6 characters of a new password at registration', () => {
    expect(newPasswordError('')).toBe('Password is required');
    expect(newPasswordError('      ')).toBe('Password is required');
    expect(newPasswordError(' ab12 ')).toBeUndefined();
    expect(newPasswordError('12345')).toBe('Minimum 6 characters');
    expect(newPasswordError('123456')).toBeUndefined();
  });

  it.each(['abcdef', '123456', 'abc12', 'abc 123', 'abc123#'])('refuses %j as a reset or changed password', (password) => {
    expect(strongPasswordError(password)).toBe('Must contain at least 6 chars, 1 letter & 1 number');
  });

  it.each(['abc123', 'A1@$!%*?&', 'passw0rd'])('accepts %j as a reset or changed password', (password) => {
    expect(strongPasswordError(password)).toBeUndefined();
  });

  it('requires a reset or changed password, and its confirmation to match it', () => {
    expect(strongPasswordError('')).toBe('Password is required');
    expect(confirmPasswordError('', 'abc123')).toBe('Confirm password is required');
    expect(confirmPasswordError('abc124', 'abc123')).toBe('Passwords do not match');
    expect(confirmPasswordError('abc123', 'abc123')).toBeUndefined();
  });

  it('wants an OTP of at least 4 characters, and any authenticator or recovery code', () => {
    expect(otpError(' ')).toBe('OTP is required');
    expect(otpError('123')).toBe('OTP must be at least 4 digits');
    expect(otpError('1234')).toBeUndefined();
    expect(codeError('  ')).toBe('Code is required');
    expect(codeError('123456')).toBeUndefined();
  });
});
