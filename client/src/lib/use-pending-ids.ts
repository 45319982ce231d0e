import { useCallback, useRef, useState } from 'react';

/**
 * The ids of the rows whose request is on its way, so each row waits for its own answer:
 * `start(id)` is false (and changes nothing) while that id is already pending, so a second
 * click cannot send the same request twice; `finish(id)` frees that row only.
 */
export function usePendingIds() {
  // The ref answers `start` at once, before React has rendered the last change.
  const pending = useRef(new Set<string>());
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(() => new Set());

  const start = useCallback((id: string): boolean => {
    if (pending.current.has(id)) return false;
    pending.current.add(id);
    setPendingIds(new Set(pending.current));
    return true;
  }, []);

  const finish = useCallback((id: string) => {
    if (!pending.current.delete(id)) return;
    setPendingIds(new Set(pending.current));
  }, []);

  return { pendingIds, start, finish };
}
