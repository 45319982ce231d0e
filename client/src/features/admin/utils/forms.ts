import type { IdTokenSigningAlg } from '../api/oauth-clients';

/** The reason an admin gives for suspending an account (the server's words when blank). */
export const REASON_REQUIRED = 'Reason is required';

export const reasonError = (reason: string): string | undefined => (reason.trim() === '' ? REASON_REQUIRED : undefined);

/** Whether the typed confirmation is the account's email (case and surrounding spaces aside). */
export const emailMatches = (typed: string, email: string): boolean => typed.trim() !== '' && typed.trim().toLowerCase() === email.trim().toLowerCase();

export const SEAT_LIMIT_ERROR = 'Enter a whole number of seats, or leave it blank for no limit';

/** The seat limit as typed: blank is no limit (null); otherwise a whole number of at least 1. */
export function parseSeatLimit(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d{1,9}$/.test(trimmed) || Number(trimmed) < 1) return { ok: false, error: SEAT_LIMIT_ERROR };
  return { ok: true, value: Number(trimmed) };
}

/** Redirect URIs typed one per line: each trimmed, blank lines and repeats dropped. */
export const redirectUrisFrom = (text: string): string[] => [
  ...new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  ),
];

export type ClientFormValues = { name: string; redirectUris: string; firstParty: boolean; type: 'confidential' | 'public'; alg: IdTokenSigningAlg };

/** The create form's own checks, before the server's (which has the last word on each URI). */
export function clientFormErrors(values: ClientFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.name.trim() === '') errors.name = 'Name is required';
  if (redirectUrisFrom(values.redirectUris).length === 0) errors.redirectUris = 'At least one redirect URI is required';
  return errors;
}
