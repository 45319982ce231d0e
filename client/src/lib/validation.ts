/**
 * The field rules the forms share (SPEC.md section 5), with their exact texts. Each returns the
 * message to show beneath the field, or undefined when the value is fine. Text fields are
 * judged without their surrounding spaces; passwords as typed.
 */

/**
 * The server's rule (api/src/accounts/fields.rs): a plain address, its name dot-separated
 * atoms of ASCII letters, digits and the symbols RFC 5322 allows, at a domain of two or more
 * ASCII labels. So the form never lets through what the server would refuse (`jürgen@…`).
 */
const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;
const EMAIL_MAX_LENGTH = 255;
const COUNTRY_CODE_PATTERN = /^\+\d{1,3}$/;
const PHONE_PATTERN = /^\d{6,14}$/;
/** At least 6 of letters, digits and @$!%*?&, with at least one letter and one digit. */
const STRONG_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d@$!%*?&]{6,}$/;
const PASSWORD_MIN_LENGTH = 6;
const OTP_MIN_LENGTH = 4;

/** `{label} is required` for a blank name ('Full Name', 'Institute Name', 'Name', …). */
export function requiredError(value: string, label: string): string | undefined {
  return value.trim() === '' ? `${label} is required` : undefined;
}

export function emailError(email: string): string | undefined {
  if (email.trim() === '') return 'Email is required';
  const value = email.trim();
  if (value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value) || !withinMailLimits(value)) {
    return 'Invalid email format';
  }
  return undefined;
}

/**
 * What mail can carry (RFC 5321): a name of at most 64 characters, domain labels of at most
 * 63, and a top-level domain that is a name, not a number, as the server checks.
 */
function withinMailLimits(address: string): boolean {
  const at = address.lastIndexOf('@');
  const [name, domain] = [address.slice(0, at), address.slice(at + 1)];
  const labels = domain.split('.');
  return (
    name.length <= 64 &&
    labels.every((label) => label.length <= 63) &&
    /[A-Za-z]/.test(labels[labels.length - 1] ?? '')
  );
}

/** A plus sign and 1 to 3 digits. */
export function countryCodeError(countryCode: string): string | undefined {
  const value = countryCode.trim();
  if (value === '') return 'Country code is required';
  return COUNTRY_CODE_PATTERN.test(value) ? undefined : 'Invalid code (e.g., +91)';
}

/** The phone's own digits, without the country code: 6 to 14 of them. */
export function phoneError(phone: string): string | undefined {
  const value = phone.trim();
  if (value === '') return 'Phone number is required';
  return PHONE_PATTERN.test(value) ? undefined : 'Enter 6-14 digits';
}

/** The password of a sign-in or a confirmation: only required. */
export function passwordError(password: string): string | undefined {
  return password === '' ? 'Password is required' : undefined;
}

/** The password chosen at registration: at least 6 characters, not all of them blank. */
export function newPasswordError(password: string): string | undefined {
  if (password.trim() === '') return 'Password is required';
  return password.length < PASSWORD_MIN_LENGTH ? 'Minimum 6 characters' : undefined;
}

/** The password chosen on reset or change: the stronger rule. */
export function strongPasswordError(password: string): string | undefined {
  if (password === '') return 'Password is required';
  return STRONG_PASSWORD_PATTERN.test(password) ? undefined : 'Must contain at least 6 chars, 1 letter & 1 number';
}

export function confirmPasswordError(confirmPassword: string, password: string): string | undefined {
  if (confirmPassword === '') return 'Confirm password is required';
  return confirmPassword !== password ? 'Passwords do not match' : undefined;
}

/** The emailed one-time code. */
export function otpError(otp: string): string | undefined {
  const value = otp.trim();
  if (value === '') return 'OTP is required';
  return value.length < OTP_MIN_LENGTH ? 'OTP must be at least 4 digits' : undefined;
}

/** A code from the authenticator app, or a recovery code. */
export function codeError(code: string): string | undefined {
  return code.trim() === '' ? 'Code is required' : undefined;
}
