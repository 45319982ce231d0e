import { safeNextPath } from './next-path';

/**
 * What /verify-otp needs in the navigation state (SPEC.md section 2); `next` is a path of this
 * site to open once the email is verified (an invitation), instead of the home page;
 * `resendIn` the seconds the server said to wait when it refused the code asked for on the
 * way there (its Retry-After), so the screen neither claims a code was sent nor offers a
 * Resend that would be refused the same way.
 */
export type VerifyOtpState = { email: string; phone?: string; next?: string; resendIn?: number };

/** A day: longer than any wait the server sets for codes. */
const MAX_RESEND_IN_S = 86_400;

export function readVerifyOtpState(state: unknown): VerifyOtpState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { email, phone, next, resendIn } = state as Record<string, unknown>;
  if (typeof email !== 'string' || email.trim() === '') return null;
  const read: VerifyOtpState = typeof phone === 'string' ? { email, phone } : { email };
  const safeNext = typeof next === 'string' ? safeNextPath(next) : null;
  if (safeNext) read.next = safeNext;
  if (typeof resendIn === 'number' && Number.isInteger(resendIn) && resendIn > 0 && resendIn <= MAX_RESEND_IN_S) read.resendIn = resendIn;
  return read;
}

/** The state for /verify-otp, `next` only when there is a safe one. */
export function verifyOtpState(
  email: string,
  { phone, next, resendIn }: { phone?: string; next?: string | null; resendIn?: number } = {},
): VerifyOtpState {
  const state: VerifyOtpState = phone === undefined ? { email } : { email, phone };
  const safeNext = safeNextPath(next);
  if (safeNext) state.next = safeNext;
  if (resendIn !== undefined) state.resendIn = resendIn;
  return state;
}
