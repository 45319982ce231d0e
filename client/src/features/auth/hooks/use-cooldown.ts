import { useCallback, useEffect, useState } from 'react';

/** SPEC.md section 9: OTP resend cooldown. */
export const OTP_RESEND_COOLDOWN_S = 60;

/** A seconds countdown that ticks once a second down to 0; `start` begins it again. */
export function useCooldown(initialSeconds: number) {
  const [remaining, setRemaining] = useState(initialSeconds);
  const active = remaining > 0;

  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setRemaining((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => clearInterval(timer);
  }, [active]);

  const start = useCallback((seconds: number) => setRemaining(seconds), []);
  return { remaining, start };
}
