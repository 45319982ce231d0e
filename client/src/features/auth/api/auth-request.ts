import { ApiError, apiRequest, toApiError } from '@/lib/api-client';
import type { SessionUser } from '@/lib/session-store';

/** What login, OTP verification and the Google calls return in `data`. */
export type SignedInData = { user: SessionUser; token: string };

/** Two-factor sign-in is on: send a code with this challenge to /auth/login/two-factor. */
export type TwoFactorData = { twoFactorRequired: true; challenge: string };

/** The first step of a sign-in (password or Google): a session, or the two-factor challenge. */
export type SignInStepData = SignedInData | TwoFactorData;

export const needsTwoFactor = (data: SignInStepData): data is TwoFactorData => 'twoFactorRequired' in data && data.twoFactorRequired;

export type AuthResult<T> = { message: string; data: T };

/**
 * POSTs one account call and returns the server's message and data, or throws an ApiError
 * with the server's message (else `fallbackMessage`) and its field errors.
 */
export async function postAuth<T>(apiBaseUrl: string, path: string, body: unknown, fallbackMessage: string): Promise<AuthResult<T>> {
  const response = await apiRequest<T>(apiBaseUrl, path, { method: 'POST', body });
  const ok = response.status >= 200 && response.status < 300;
  if (ok && response.body?.success === true) {
    return { message: response.body.message?.trim() ?? '', data: response.body.data as T };
  }
  throw toApiError(response, ok ? 'Something went wrong' : fallbackMessage);
}

/** The text to show for a failed call: the server's message, else the screen's default. */
export function failureMessage(error: unknown, fallbackMessage: string): string {
  return error instanceof ApiError && error.message ? error.message : fallbackMessage;
}

export function fieldErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fieldErrors : {};
}
