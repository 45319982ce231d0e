import { describe, expect, it } from 'vitest';
import { validateForgotPassword, validateLogin, validateOtp, validateRegister, validateResetPassword } from './auth-forms';

const register = { role: 'career' as const, name: 'Asha', email: 'asha@example.com', countryCode: '+91', phone: '9876543210', password: 'secret1' };

describe('login validation', () => {
  it('requires email and password', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'Email is required', password: 'Password is required' });
  });
  it('checks the email format', () => {
    expect(validateLogin({ email: 'asha@', password: 'x' })).toEqual({ email: 'Invalid email format' });
    expect(validateLogin({ email: 'asha@example.com', password: 'x' })).toEqual({});
  });
  it('applies the same email rules to forgot password', () => {
    expect(validateForgotPassword({ email: '' })).toEqual({ email: 'Email is required' });
    expect(validateForgotPassword({ email: 'nope' })).toEqual({ email: 'Invalid email format' });
  });
});

describe('register validation', () => {
  it('accepts a complete form', () => {
    expect(validateRegister(register)).toEqual({});
  });
  it.each([
    ['career', 'Full Name is required'],
    ['campus', 'Institute Name is required'],
    ['hire', 'Organization Name is required'],
  ] as const)('names the %s label in the name error', (role, message) => {
    expect(validateRegister({ ...register, role, name: '  ' }).name).toBe(message);
  });
  it('checks the country code', () => {
    expect(validateRegister({ ...register, countryCode: '' }).countryCode).toBe('Country code is required');
    for (const bad of ['91', '+', '+1234', '+9a']) expect(validateRegister({ ...register, countryCode: bad }).countryCode).toBe('Invalid code (e.g., +91)');
    for (const good of ['+1', '+44', '+971']) expect(validateRegister({ ...register, countryCode: good }).countryCode).toBeUndefined();
  });
  it('wants 6 to 14 digits of phone', () => {
    expect(validateRegister({ ...register, phone: '' }).phone).toBe('Phone number is required');
    for (const bad of ['12345', '123456789012345', '98765-4321']) expect(validateRegister({ ...register, phone: bad }).phone).toBe('Enter 6-14 digits');
    for (const good of ['123456', '12345678901234']) expect(validateRegister({ ...register, phone: good }).phone).toBeUndefined();
  });
  it('wants a password of at least 6 characters', () => {
    expect(validateRegister({ ...register, password: '' }).password).toBe('Password is required');
    expect(validateRegister({ ...register, password: '12345' }).password).toBe('Minimum 6 characters');
    expect(validateRegister({ ...register, password: '123456' }).password).toBeUndefined();
  });
});

describe('reset password validation', () => {
  it('requires both fields', () => {
    expect(validateResetPassword({ password: '', confirmPassword: '' })).toEqual({
      password: 'Password is required',
      confirmPassword: 'Confirm password is required',
    });
  });
  it.each(['abcdef', '123456', 'abc12', 'abc 123', 'abc123#'])('refuses %j', (password) => {
    expect(validateResetPassword({ password, confirmPassword: password }).password).toBe('Must contain at least 6 chars, 1 letter & 1 number');
  });
  it.each(['abc123', 'A1@$!%*?&', 'passw0rd'])('accepts %j', (password) => {
    expect(validateResetPassword({ password, confirmPassword: password })).toEqual({});
  });
  it('wants the confirmation to match', () => {
    expect(validateResetPassword({ password: 'abc123', confirmPassword: 'abc124' })).toEqual({ confirmPassword: 'Passwords do not match' });
  });
});

describe('OTP validation', () => {
  it('requires at least 4 characters', () => {
    expect(validateOtp({ otp: '' })).toEqual({ otp: 'OTP is required' });
    expect(validateOtp({ otp: '123' })).toEqual({ otp: 'OTP must be at least 4 digits' });
    expect(validateOtp({ otp: '1234' })).toEqual({});
  });
});
