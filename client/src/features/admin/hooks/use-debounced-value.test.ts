import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from './use-debounced-value';

describe('useDebouncedValue', () => {
  it('follows the value only once it has stayed the same for the delay', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value), { initialProps: { value: '' } });
    rerender({ value: 'a' });
    act(() => vi.advanceTimersByTime(100));
    rerender({ value: 'ad' });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('ad');
  });

  it('waits about a quarter of a second by default', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(250);
  });
});
