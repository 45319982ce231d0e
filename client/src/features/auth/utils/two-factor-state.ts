/** What the login screen's code step needs in the navigation state. */
export type TwoFactorState = { challenge: string; target: string };

/** The code step's state from `location.state`, if the sign-in is waiting for a code. */
export function readTwoFactorState(state: unknown): TwoFactorState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { twoFactor } = state as Record<string, unknown>;
  if (typeof twoFactor !== 'object' || twoFactor === null) return null;
  const { challenge, target } = twoFactor as Record<string, unknown>;
  if (typeof challenge !== 'string' || challenge === '' || typeof target !== 'string') return null;
  return { challenge, target };
}
