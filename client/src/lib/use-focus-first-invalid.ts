import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Moves focus to the first field marked invalid (`aria-invalid="true"`) inside `ref` after a
 * failed check, instead of leaving it on the submit button: the person lands on what needs
 * fixing, and a screen reader reads that field with its error (the field's description).
 * `focusFirstInvalid()` asks for it; the move happens once the render that marks the fields
 * has been committed.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests === 0) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusFirstInvalid = useCallback(() => setRequests((count) => count + 1), []);
  return { ref, focusFirstInvalid };
}
