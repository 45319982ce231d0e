import {
  confirmPasswordError,
  countryCodeError,
  emailError,
  newPasswordError,
  otpError,
  passwordError,
  phoneError,
  requiredError,
  strongPasswordError,
} from '@/lib/validation';
import type { Role } from '../api/register';

/** The account screens' forms, each checked with the shared field rules (lib/validation.ts). */
type FieldErrors<K extends string> = Partial<Record<K, string>>;

export const ROLE_NAME_LABELS: Record<Role, string> = {
  career: 'Full Name',
  campus: 'Institute Name',
  hire: 'Organization Name',
};

const withoutEmpty = <K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> =>
  Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as FieldErrors<K>;

export type LoginValues = { email: string; password: string };

export function validateLogin({ email, password }: LoginValues): FieldErrors<keyof LoginValues> {
  return withoutEmpty({ email: emailError(email), password: passwordError(password) });
}

export type RegisterValues = { role: Role; name: string; email: string; countryCode: string; phone: string; password: string };
export type RegisterField = Exclude<keyof RegisterValues, 'role'>;

export function validateRegister(values: RegisterValues): FieldErrors<RegisterField> {
  return withoutEmpty({
    name: requiredError(values.name, ROLE_NAME_LABELS[values.role]),
    email: emailError(values.email),
    countryCode: countryCodeError(values.countryCode),
    phone: phoneError(values.phone),
    password: newPasswordError(values.password),
  });
}

export function validateForgotPassword({ email }: { email: string }): FieldErrors<'email'> {
  return withoutEmpty({ email: emailError(email) });
}

export type ResetValues = { password: string; confirmPassword: string };

export function validateResetPassword({ password, confirmPassword }: ResetValues): FieldErrors<keyof ResetValues> {
  return withoutEmpty({ password: strongPasswordError(password), confirmPassword: confirmPasswordError(confirmPassword, password) });
}

export function validateOtp({ otp }: { otp: string }): FieldErrors<'otp'> {
  return withoutEmpty({ otp: otpError(otp) });
}

export const hasErrors = (errors: Record<string, string | undefined>): boolean => Object.values(errors).some(Boolean);
