import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';

export type Resource<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * Loads `load()` when `key` changes (an answer for an older key is dropped); `refresh` loads
 * again while what is shown stays on screen; `setData` changes what is shown after a change
 * the server confirmed. `enabled: false` loads nothing (the caller may not see the data).
 */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>, enabled = true) {
  const [resource, setResource] = useState<Resource<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const controller = useRef<AbortController | null>(null);

  const run = useCallback((showLoading: boolean) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    if (showLoading) setResource({ status: 'loading' });
    loadRef.current(current.signal).then(
      (data) => {
        if (!current.signal.aborted) setResource({ status: 'ready', data });
      },
      (error: unknown) => {
        if (!current.signal.aborted) setResource((previous) => (showLoading || previous.status !== 'ready' ? { status: 'error', error } : previous));
      },
    );
  }, []);

  useEffect(() => {
    if (!enabled) return undefined;
    run(true);
    return () => controller.current?.abort();
  }, [key, enabled, run]);

  const refresh = useCallback(() => run(false), [run]);
  const setData: Dispatch<SetStateAction<T>> = useCallback((next) => {
    setResource((previous) => {
      if (previous.status !== 'ready') return previous;
      const data = typeof next === 'function' ? (next as (value: T) => T)(previous.data) : next;
      return { status: 'ready', data };
    });
  }, []);

  return { resource, refresh, setData };
}
