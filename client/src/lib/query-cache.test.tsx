import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useCachedQuery } from './query-cache';

describe('useCachedQuery', () => {
  it('shares one fetch between components and serves the cache while fresh', async () => {
    const fetcher = vi.fn(() => Promise.resolve('data'));
    const first = renderHook(() => useCachedQuery('k1', fetcher, { staleTime: 600_000 }));
    const second = renderHook(() => useCachedQuery('k1', fetcher, { staleTime: 600_000 }));
    await waitFor(() => expect(first.result.current.data).toBe('data'));
    expect(second.result.current.data).toBe('data');
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('refetches on window focus and on reconnect once the data is older than the stale time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fetcher = vi.fn(() => Promise.resolve('data'));
    const { result } = renderHook(() => useCachedQuery('k2', fetcher, { staleTime: 600_000 }));
    await waitFor(() => expect(result.current.data).toBe('data'));

    vi.setSystemTime(Date.now() + 599_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(fetcher).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + 2_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(fetcher).toHaveBeenCalledTimes(2));

    vi.setSystemTime(Date.now() + 600_000);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(fetcher).toHaveBeenCalledTimes(3));
  });
});
