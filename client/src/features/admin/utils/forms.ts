import type { IdTokenSigningAlg } from '../api/oauth-clients';

/** The reason an admin gives for suspending an account (the server's words when blank). */
export const REASON_REQUIRED = 'Reason is required';

export const reasonError = (reason: string): string | undefined => (reason.trim() === '' ? REASON_REQUIRED : undefined);

/** Whether the typed confirmation is the account's email (case and surrounding spaces aside). */
export const emailMatches = (typed: string, email: string): boolean => typed.trim() !== '' && typed.trim().toLowerCase() === email.trim().toLowerCase();

export const SEAT_LIMIT_ERROR = 'Enter a whole number of seats, or leave it blank for no limit';

/** The server's highest seat limit (`MAX_SEATS` in api/src/organizations/mod.rs). */
export const MAX_SEATS = 1_000_000;

/** The server's own words for a whole number out of range. */
export const SEAT_LIMIT_RANGE_ERROR = `Seat limit must be a whole number from 1 to ${MAX_SEATS}`;

/** The seat limit as typed: blank is no limit (null); otherwise a whole number from 1 to MAX_SEATS. */
export function parseSeatLimit(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, error: SEAT_LIMIT_ERROR };
  const value = Number(trimmed);
  if (value < 1 || value > MAX_SEATS) return { ok: false, error: SEAT_LIMIT_RANGE_ERROR };
  return { ok: true, value };
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
