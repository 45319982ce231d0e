import { useCallback, useEffect, useRef, useState } from 'react';

export type Details<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * Loads `load()` when `key` changes; `refresh` loads again after a change while what is shown
 * stays on screen (a failed refresh leaves it); `setData` shows what the server answered.
 */
export function useDetails<T>(key: string, load: (signal: AbortSignal) => Promise<T>) {
  const [details, setDetails] = useState<Details<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const controller = useRef<AbortController | null>(null);

  const run = useCallback((fresh: boolean) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    if (fresh) setDetails({ status: 'loading' });
    return loadRef.current(current.signal).then(
      (data) => {
        if (!current.signal.aborted) setDetails({ status: 'ready', data });
      },
      (error: unknown) => {
        if (!current.signal.aborted) setDetails((previous) => (fresh || previous.status !== 'ready' ? { status: 'error', error } : previous));
      },
    );
  }, []);

  useEffect(() => {
    void run(true);
    return () => controller.current?.abort();
  }, [key, run]);

  const refresh = useCallback(() => run(false), [run]);
  const setData = useCallback((change: (data: T) => T) => {
    setDetails((previous) => (previous.status === 'ready' ? { status: 'ready', data: change(previous.data) } : previous));
  }, []);
  return { details, refresh, setData };
}
