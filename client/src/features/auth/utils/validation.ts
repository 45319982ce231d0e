import type { Role } from '../api/register';

/** SPEC.md sections 5 and 9: the account screens' rules and their exact texts. */
export const OTP_MIN_LENGTH = 4;
export const PASSWORD_MIN_LENGTH = 6;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COUNTRY_CODE_PATTERN = /^\+\d{1,3}$/;
const PHONE_PATTERN = /^\d{6,14}$/;
const RESET_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*?&]{6,}$/;

export const ROLE_NAME_LABELS: Record<Role, string> = {
  career: 'Full Name',
  campus: 'Institute Name',
  hire: 'Organization Name',
};

export function validateEmail(email: string): string | undefined {
  if (email.trim() === '') return 'Email is required';
  if (!EMAIL_PATTERN.test(email.trim())) return 'Invalid email format';
  return undefined;
}

const withoutEmpty = <K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> =>
  Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as FieldErrors<K>;

export type LoginValues = { email: string; password: string };

export function validateLogin({ email, password }: LoginValues): FieldErrors<keyof LoginValues> {
  return withoutEmpty({ email: validateEmail(email), password: password === '' ? 'Password is required' : undefined });
}

export type RegisterValues = { role: Role; name: string; email: string; countryCode: string; phone: string; password: string };
export type RegisterField = Exclude<keyof RegisterValues, 'role'>;

export function validateRegister(values: RegisterValues): FieldErrors<RegisterField> {
  const countryCode = values.countryCode.trim();
  const phone = values.phone.trim();
  return withoutEmpty({
    name: values.name.trim() === '' ? `${ROLE_NAME_LABELS[values.role]} is required` : undefined,
    email: validateEmail(values.email),
    countryCode: countryCode === '' ? 'Country code is required' : COUNTRY_CODE_PATTERN.test(countryCode) ? undefined : 'Invalid code (e.g., +91)',
    phone: phone === '' ? 'Phone number is required' : PHONE_PATTERN.test(phone) ? undefined : 'Enter 6-14 digits',
    password:
      values.password === '' ? 'Password is required' : values.password.length < PASSWORD_MIN_LENGTH ? 'Minimum 6 characters' : undefined,
  });
}

export function validateForgotPassword({ email }: { email: string }): FieldErrors<'email'> {
  return withoutEmpty({ email: validateEmail(email) });
}

export type ResetValues = { password: string; confirmPassword: string };

export function validateResetPassword({ password, confirmPassword }: ResetValues): FieldErrors<keyof ResetValues> {
  return withoutEmpty({
    password:
      password === ''
        ? 'Password is required'
        : RESET_PASSWORD_PATTERN.test(password)
          ? undefined
          : 'Must contain at least 6 chars, 1 letter & 1 number',
    confirmPassword: confirmPassword === '' ? 'Confirm password is required' : confirmPassword !== password ? 'Passwords do not match' : undefined,
  });
}

export function validateOtp({ otp }: { otp: string }): FieldErrors<'otp'> {
  const value = otp.trim();
  return withoutEmpty({
    otp: value === '' ? 'OTP is required' : value.length < OTP_MIN_LENGTH ? 'OTP must be at least 4 digits' : undefined,
  });
}

export const hasErrors = (errors: Record<string, string | undefined>): boolean => Object.values(errors).some(Boolean);
