/** The change-password form's rules: the reset rule of SPEC.md section 5 for the new password. */
export type ChangePasswordValues = { currentPassword: string; password: string; confirmPassword: string };
export type ChangePasswordField = keyof ChangePasswordValues;
export type ChangePasswordErrors = Partial<Record<ChangePasswordField, string>>;

const RESET_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*?&]{6,}$/;

export function validateChangePassword(values: ChangePasswordValues, needsCurrent: boolean): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  if (needsCurrent && values.currentPassword === '') errors.currentPassword = 'Current password is required';
  if (values.password === '') errors.password = 'Password is required';
  else if (!RESET_PASSWORD_PATTERN.test(values.password)) errors.password = 'Must contain at least 6 chars, 1 letter & 1 number';
  if (values.confirmPassword === '') errors.confirmPassword = 'Confirm password is required';
  else if (values.confirmPassword !== values.password) errors.confirmPassword = 'Passwords do not match';
  return errors;
}
