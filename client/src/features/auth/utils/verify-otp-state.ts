/** What /verify-otp needs in the navigation state (SPEC.md section 2). */
export type VerifyOtpState = { email: string; phone?: string };

export function readVerifyOtpState(state: unknown): VerifyOtpState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { email, phone } = state as Record<string, unknown>;
  if (typeof email !== 'string' || email.trim() === '') return null;
  return typeof phone === 'string' ? { email, phone } : { email };
}
