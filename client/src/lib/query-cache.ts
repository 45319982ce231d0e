import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * A deliberately small stand-in for a query library: one shared cache keyed by string,
 * stale after `staleTime`, refetched on mount / window focus / reconnect when stale, with
 * concurrent requests for one key deduplicated.
 */
export type QueryState<T> = {
  status: 'idle' | 'loading' | 'success' | 'error';
  data: T | undefined;
  error: unknown;
  updatedAt: number;
};

const idleState: QueryState<never> = { status: 'idle', data: undefined, error: undefined, updatedAt: 0 };

const states = new Map<string, QueryState<unknown>>();
const inFlight = new Map<string, Promise<void>>();
const listeners = new Map<string, Set<() => void>>();

function emit(key: string): void {
  listeners.get(key)?.forEach((listener) => listener());
}

function setState(key: string, next: QueryState<unknown>): void {
  states.set(key, next);
  emit(key);
}

export function getQueryState<T>(key: string): QueryState<T> {
  return (states.get(key) as QueryState<T> | undefined) ?? idleState;
}

/** Writes data directly (e.g. signed out after logout) and marks it fresh. */
export function setQueryData<T>(key: string, data: T): void {
  setState(key, { status: 'success', data, error: undefined, updatedAt: Date.now() });
}

/** Marks the entry stale so the next mount/focus (or `fetchQuery`) loads it again. */
export function invalidateQuery(key: string): void {
  const current = states.get(key);
  if (current) setState(key, { ...current, updatedAt: 0 });
}

export function clearQueryCache(): void {
  states.clear();
  inFlight.clear();
}

export function fetchQuery<T>(key: string, fetcher: () => Promise<T>): Promise<void> {
  const running = inFlight.get(key);
  if (running) return running;
  const previous = getQueryState<T>(key);
  // Keep showing the previous data while a background refetch runs.
  if (previous.status !== 'success') setState(key, { ...previous, status: 'loading' });
  const promise = fetcher()
    .then((data) => setState(key, { status: 'success', data, error: undefined, updatedAt: Date.now() }))
    .catch((error: unknown) => setState(key, { status: 'error', data: undefined, error, updatedAt: Date.now() }))
    .finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}

const isStale = (state: QueryState<unknown>, staleTime: number) =>
  state.status === 'idle' || Date.now() - state.updatedAt >= staleTime;

export type UseCachedQueryOptions<T> = {
  staleTime: number;
  enabled?: boolean;
  /**
   * What the prerendered HTML showed for this query. The build renders with it, and the
   * browser's first render (the one that hydrates that HTML) uses it too, then moves on to
   * the cached state. Without it both render the empty state.
   */
  prerendered?: QueryState<T>;
};

export function useCachedQuery<T>(key: string, fetcher: () => Promise<T>, { staleTime, enabled = true, prerendered }: UseCachedQueryOptions<T>) {
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;

  const subscribe = useCallback(
    (listener: () => void) => {
      const set = listeners.get(key) ?? new Set();
      set.add(listener);
      listeners.set(key, set);
      return () => set.delete(listener);
    },
    [key],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => getQueryState<T>(key),
    () => prerendered ?? getQueryState<T>(key),
  );

  const refetch = useCallback(() => fetchQuery(key, () => fetcherRef.current()), [key]);

  useEffect(() => {
    if (!enabled) return undefined;
    const refreshIfStale = () => {
      if (isStale(getQueryState(key), staleTime)) void refetch();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refreshIfStale();
    };
    refreshIfStale();
    window.addEventListener('focus', refreshIfStale);
    window.addEventListener('online', refreshIfStale);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', refreshIfStale);
      window.removeEventListener('online', refreshIfStale);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [key, staleTime, enabled, refetch]);

  return {
    data: state.data,
    error: state.error,
    status: state.status,
    isLoading: enabled && (state.status === 'idle' || state.status === 'loading'),
    refetch,
  };
}
