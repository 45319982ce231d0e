import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubSystemScheme } from '@/test/match-media';
import { testConfig } from '@/test/render';
import { ConfigProvider } from './config-context';
import { markSignedIn, markSignedOut } from './session';
import { applyTheme } from './theme';
import { THEME_STORAGE_KEY } from './theme-storage';
import { useAppliedTheme, useThemeSync } from './use-theme';

const wrapper = ({ children }: { children: ReactNode }) => <ConfigProvider config={testConfig()}>{children}</ConfigProvider>;
const pageTheme = () => document.documentElement.dataset.theme;
const remembered = () => window.localStorage.getItem(THEME_STORAGE_KEY);
const signIn = (theme?: string) => markSignedIn({ id: 'u1', name: 'Asha Rao', ...(theme ? { preferences: { theme } } : {}) });

beforeEach(() => {
  // The session is seeded in each test; a request would mean the hook asked on its own.
  vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => undefined)));
});

afterEach(() => {
  delete document.documentElement.dataset.theme;
});

describe('useThemeSync', () => {
  it("applies a signed-in user's preference over the system setting and remembers it", () => {
    stubSystemScheme('dark');
    signIn('light');
    const { result } = renderHook(useThemeSync, { wrapper });
    expect(result.current).toBe('light');
    expect(pageTheme()).toBe('light');
    expect(remembered()).toBe('light');
  });

  it('gives a user with no saved preference the default, dark, even on a light system', () => {
    stubSystemScheme('light');
    signIn();
    renderHook(useThemeSync, { wrapper });
    expect(pageTheme()).toBe('dark');
    expect(remembered()).toBe('dark');
  });

  it('switches the page the moment a saved profile reaches the session', () => {
    stubSystemScheme('light');
    signIn('dark');
    renderHook(useThemeSync, { wrapper });
    expect(pageTheme()).toBe('dark');
    act(() => signIn('light'));
    expect(pageTheme()).toBe('light');
    expect(remembered()).toBe('light');
  });

  it('returns to the system setting on sign-out and forgets the remembered theme', () => {
    stubSystemScheme('dark');
    signIn('light');
    renderHook(useThemeSync, { wrapper });
    expect(pageTheme()).toBe('light');
    act(() => markSignedOut());
    expect(pageTheme()).toBe('dark');
    expect(remembered()).toBeNull();
  });

  it('lets a visitor follow the system setting live', () => {
    const system = stubSystemScheme('dark');
    markSignedOut();
    renderHook(useThemeSync, { wrapper });
    expect(pageTheme()).toBe('dark');
    act(() => system.change('light'));
    expect(pageTheme()).toBe('light');
    act(() => system.change('dark'));
    expect(pageTheme()).toBe('dark');
  });

  it('stops listening to the system when unmounted', () => {
    const system = stubSystemScheme('dark');
    markSignedOut();
    const { unmount } = renderHook(useThemeSync, { wrapper });
    expect(system.listenerCount()).toBeGreaterThan(0);
    unmount();
    expect(system.listenerCount()).toBe(0);
  });

  it('keeps the remembered theme (what the first paint showed) while the session check runs', () => {
    stubSystemScheme('dark');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
    renderHook(useThemeSync, { wrapper });
    expect(pageTheme()).toBe('light');
    expect(remembered()).toBe('light');
  });
});

describe('useAppliedTheme', () => {
  it('re-renders with the theme whenever it is applied', () => {
    applyTheme('dark');
    const { result } = renderHook(useAppliedTheme);
    expect(result.current).toBe('dark');
    act(() => applyTheme('light'));
    expect(result.current).toBe('light');
  });
});
