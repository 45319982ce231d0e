import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePendingIds } from './use-pending-ids';

describe('usePendingIds', () => {
  it('keeps each id pending until its own finish, and refuses to start one twice', () => {
    const { result } = renderHook(() => usePendingIds());
    let first = false;
    let again = true;
    act(() => {
      first = result.current.start('a');
      // Same tick, before a render: still refused.
      again = result.current.start('a');
      result.current.start('b');
    });
    expect(first).toBe(true);
    expect(again).toBe(false);
    expect([...result.current.pendingIds]).toEqual(['a', 'b']);
    act(() => result.current.finish('b'));
    expect([...result.current.pendingIds]).toEqual(['a']);
    act(() => result.current.finish('a'));
    expect(result.current.pendingIds.size).toBe(0);
    let restarted = false;
    act(() => {
      restarted = result.current.start('a');
    });
    expect(restarted).toBe(true);
  });
});
