import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubSystemScheme } from '@/test/match-media';
import { appliedTheme, applyTheme, parseTheme, resolveTheme, subscribeToAppliedTheme, systemTheme, userTheme } from './theme';
import { forgetTheme, readRememberedTheme, rememberTheme, THEME_STORAGE_KEY } from './theme-storage';

afterEach(() => {
  delete document.documentElement.dataset.theme;
  document.head.innerHTML = '';
});

describe('theme values', () => {
  it('accepts only light and dark', () => {
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
    for (const value of ['Light', '', null, undefined, 1, 'system']) expect(parseTheme(value)).toBeNull();
  });

  it("reads a user's preference with SPEC.md's default, dark, for anything else", () => {
    expect(userTheme('light')).toBe('light');
    expect(userTheme('dark')).toBe('dark');
    expect(userTheme(undefined)).toBe('dark');
    expect(userTheme(null)).toBe('dark');
    expect(userTheme('blue')).toBe('dark');
  });
});

describe('systemTheme', () => {
  it('is light only when the system says light', () => {
    stubSystemScheme('light');
    expect(systemTheme()).toBe('light');
    stubSystemScheme('dark');
    expect(systemTheme()).toBe('dark');
  });

  it('is the default, dark, when the browser cannot tell', () => {
    expect(systemTheme({} as Pick<Window, 'matchMedia'>)).toBe('dark');
  });
});

describe('resolveTheme', () => {
  it("shows a signed-in user's preference whatever the system says", () => {
    expect(resolveTheme({ session: 'signed-in', preference: 'light' })).toBe('light');
    expect(resolveTheme({ session: 'signed-in', preference: 'dark' })).toBe('dark');
    expect(resolveTheme({ session: 'signed-in', preference: undefined })).toBe('dark');
  });

  it('shows a visitor the system setting', () => {
    expect(resolveTheme({ session: 'signed-out', system: 'light' })).toBe('light');
    expect(resolveTheme({ session: 'signed-out', system: 'dark' })).toBe('dark');
  });

  it('keeps the remembered theme while the session check runs, else the system one', () => {
    expect(resolveTheme({ session: 'loading', remembered: 'light', system: 'dark' })).toBe('light');
    expect(resolveTheme({ session: 'loading', remembered: null, system: 'light' })).toBe('light');
  });
});

describe('applyTheme', () => {
  it('sets the attribute the palette keys on and the color-scheme meta', () => {
    document.head.innerHTML = '<meta name="color-scheme" content="dark light">';
    applyTheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.querySelector('meta[name="color-scheme"]')).toHaveAttribute('content', 'light');
    expect(appliedTheme()).toBe('light');
    applyTheme('dark');
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    expect(document.querySelector('meta[name="color-scheme"]')).toHaveAttribute('content', 'dark');
  });

  it('tells subscribers about a change, and only about a change', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToAppliedTheme(listener);
    applyTheme('light');
    applyTheme('light');
    applyTheme('dark');
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    applyTheme('light');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('reads a page without the attribute as the default, dark', () => {
    expect(appliedTheme()).toBe('dark');
  });
});

describe('the remembered theme', () => {
  it('is stored, read back and forgotten under the key theme-init.js reads', () => {
    expect(readRememberedTheme()).toBeNull();
    rememberTheme('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(readRememberedTheme()).toBe('light');
    forgetTheme();
    expect(readRememberedTheme()).toBeNull();
  });

  it('ignores a value that is not a theme', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(readRememberedTheme()).toBeNull();
  });

  it('survives storage that throws', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('denied');
    });
    expect(() => rememberTheme('dark')).not.toThrow();
    expect(readRememberedTheme()).toBeNull();
  });
});
