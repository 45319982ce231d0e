import { useEffect, useState } from 'react';

/** How long typing must pause before a search goes out. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * `value`, once it has stayed the same for `delayMs`: a search box follows the typing
 * without a call per key.
 */
export function useDebouncedValue<T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
