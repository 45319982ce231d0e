import { confirmPasswordError, strongPasswordError } from '@/lib/validation';

/** The change-password form's rules: the reset rule of SPEC.md section 5 for the new password. */
export type ChangePasswordValues = { currentPassword: string; password: string; confirmPassword: string };
export type ChangePasswordField = keyof ChangePasswordValues;
export type ChangePasswordErrors = Partial<Record<ChangePasswordField, string>>;

export function validateChangePassword(values: ChangePasswordValues, needsCurrent: boolean): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  if (needsCurrent && values.currentPassword === '') errors.currentPassword = 'Current password is required';
  const password = strongPasswordError(values.password);
  if (password) errors.password = password;
  const confirmPassword = confirmPasswordError(values.confirmPassword, values.password);
  if (confirmPassword) errors.confirmPassword = confirmPassword;
  return errors;
}
