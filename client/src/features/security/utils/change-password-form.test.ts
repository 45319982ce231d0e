import { describe, expect, it } from 'vitest';
import { validateChangePassword } from './change-password-form';

describe('validateChangePassword', () => {
  it('asks for every field with the reset rule texts', () => {
    expect(validateChangePassword({ currentPassword: '', password: '', confirmPassword: '' }, true)).toEqual({
      currentPassword: 'Current password is required',
      password: 'Password is required',
      confirmPassword: 'Confirm password is required',
    });
  });

  it('applies the reset rule and the match', () => {
    expect(validateChangePassword({ currentPassword: 'x', password: 'abcdef', confirmPassword: 'abcdef' }, true)).toEqual({
      password: 'Must contain at least 6 chars, 1 letter & 1 number',
    });
    expect(validateChangePassword({ currentPassword: 'x', password: 'abc123', confirmPassword: 'abc124' }, true)).toEqual({
      confirmPassword: 'Passwords do not match',
    });
    expect(validateChangePassword({ currentPassword: '', password: 'abc123', confirmPassword: 'abc123' }, false)).toEqual({});
  });
});
