import { vi } from 'vitest';

/**
 * A stand-in for `window.matchMedia` (jsdom has none) answering `(prefers-color-scheme: light)`
 * like a system set to `scheme`; `change(next)` flips the setting and tells the listeners.
 */
export function stubSystemScheme(scheme: 'light' | 'dark') {
  let current = scheme;
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const matchMedia = vi.fn((query: string) => ({
    get matches() {
      return query === '(prefers-color-scheme: light)' ? current === 'light' : query === '(prefers-color-scheme: dark)' && current === 'dark';
    },
    media: query,
    onchange: null,
    addEventListener: (_type: 'change', listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: 'change', listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
    addListener: vi.fn(),
    removeListener: vi.fn(),
    dispatchEvent: () => true,
  }));
  vi.stubGlobal('matchMedia', matchMedia);
  return {
    matchMedia,
    listenerCount: () => listeners.size,
    change(next: 'light' | 'dark') {
      current = next;
      listeners.forEach((listener) => listener({ matches: next === 'light', media: '(prefers-color-scheme: light)' } as MediaQueryListEvent));
    },
  };
}
