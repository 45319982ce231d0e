import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../api/types';

export type KeysetList<T> = {
  items: T[];
  nextCursor: string | null;
  /** `loading` also while a new first page replaces the rows on screen. */
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  loadingMore: boolean;
  moreError: unknown;
};

const START: KeysetList<never> = { items: [], nextCursor: null, status: 'loading', error: null, loadingMore: false, moreError: null };

/**
 * A list read a keyset page at a time. The first page loads whenever `key` (the filters)
 * changes, the rows already shown staying until it arrives (an answer for an older key is
 * dropped); `loadMore` appends the page after; `updateItems` changes rows the server
 * confirmed a change of.
 */
export function useKeysetList<T>(key: string, load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>) {
  const [list, setList] = useState<KeysetList<T>>(START);
  const loadRef = useRef(load);
  loadRef.current = load;
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setList((previous) => ({ ...previous, status: 'loading', error: null, loadingMore: false, moreError: null }));
    loadRef.current(null, current.signal).then(
      (page) => {
        if (!current.signal.aborted) setList({ ...START, items: page.items, nextCursor: page.nextCursor, status: 'ready' });
      },
      (error: unknown) => {
        if (!current.signal.aborted) setList({ ...START, status: 'error', error });
      },
    );
    return () => current.abort();
  }, [key]);

  const cursor = list.nextCursor;
  const loadMore = useCallback(() => {
    if (!cursor) return;
    const current = controller.current;
    if (!current) return;
    setList((previous) => ({ ...previous, loadingMore: true, moreError: null }));
    loadRef.current(cursor, current.signal).then(
      (page) => {
        if (!current.signal.aborted) {
          setList((previous) => ({ ...previous, items: [...previous.items, ...page.items], nextCursor: page.nextCursor, loadingMore: false }));
        }
      },
      (error: unknown) => {
        if (!current.signal.aborted) setList((previous) => ({ ...previous, loadingMore: false, moreError: error }));
      },
    );
  }, [cursor]);

  const updateItems = useCallback((change: (items: T[]) => T[]) => setList((previous) => ({ ...previous, items: change(previous.items) })), []);

  return { ...list, loadMore, updateItems };
}
