import { safeNextPath } from './next-path';

/**
 * What /verify-otp needs in the navigation state (SPEC.md section 2); `next` is a path of this
 * site to open once the email is verified (an invitation), instead of the home page.
 */
export type VerifyOtpState = { email: string; phone?: string; next?: string };

export function readVerifyOtpState(state: unknown): VerifyOtpState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { email, phone, next } = state as Record<string, unknown>;
  if (typeof email !== 'string' || email.trim() === '') return null;
  const read: VerifyOtpState = typeof phone === 'string' ? { email, phone } : { email };
  const safeNext = typeof next === 'string' ? safeNextPath(next) : null;
  return safeNext ? { ...read, next: safeNext } : read;
}

/** The state for /verify-otp, `next` only when there is a safe one. */
export function verifyOtpState(email: string, { phone, next }: { phone?: string; next?: string | null } = {}): VerifyOtpState {
  const state: VerifyOtpState = phone === undefined ? { email } : { email, phone };
  const safeNext = safeNextPath(next);
  return safeNext ? { ...state, next: safeNext } : state;
}
