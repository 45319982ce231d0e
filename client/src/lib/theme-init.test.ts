import { afterEach, describe, expect, it } from 'vitest';
import indexHtml from '../../index.html?raw';
import source from '../../public/theme-init.js?raw';
import { stubSystemScheme } from '@/test/match-media';
import { resolveTheme, systemTheme } from './theme';
import { readRememberedTheme, THEME_STORAGE_KEY } from './theme-storage';

// The classic script index.html runs before first paint, run here as the browser would.
const runThemeInit = () => new Function(source)() as void;

afterEach(() => {
  delete document.documentElement.dataset.theme;
  document.head.innerHTML = '';
});

describe('public/theme-init.js', () => {
  const cases: { name: string; stored: string | null; system: 'light' | 'dark' | 'unknown'; expected: 'light' | 'dark' }[] = [
    { name: 'a remembered light beats a dark system', stored: 'light', system: 'dark', expected: 'light' },
    { name: 'a remembered dark beats a light system', stored: 'dark', system: 'light', expected: 'dark' },
    { name: 'a visitor on a light system gets light', stored: null, system: 'light', expected: 'light' },
    { name: 'a visitor on a dark system gets dark', stored: null, system: 'dark', expected: 'dark' },
    { name: 'a browser that cannot tell gets the default, dark', stored: null, system: 'unknown', expected: 'dark' },
    { name: 'a stored value that is not a theme is ignored', stored: 'purple', system: 'light', expected: 'light' },
  ];

  for (const { name, stored, system, expected } of cases) {
    it(`${name}, as the app would choose while the session check runs`, () => {
      if (stored !== null) window.localStorage.setItem(THEME_STORAGE_KEY, stored);
      if (system !== 'unknown') stubSystemScheme(system);
      document.head.innerHTML = '<meta name="color-scheme" content="dark light">';

      runThemeInit();

      expect(document.documentElement).toHaveAttribute('data-theme', expected);
      expect(document.querySelector('meta[name="color-scheme"]')).toHaveAttribute('content', expected);
      // The app takes over without a flip: its own choice for a loading session is the same.
      expect(resolveTheme({ session: 'loading', remembered: readRememberedTheme(), system: systemTheme() })).toBe(expected);
    });
  }

  it('still sets a theme when storage throws', () => {
    const original = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new Error('denied');
      },
    });
    try {
      stubSystemScheme('light');
      runThemeInit();
      expect(document.documentElement).toHaveAttribute('data-theme', 'light');
    } finally {
      if (original) Object.defineProperty(window, 'localStorage', original);
    }
  });

  it('is what index.html loads, from <head>, as a blocking classic script', () => {
    const head = indexHtml.slice(0, indexHtml.indexOf('</head>'));
    expect(head).toMatch(/<script src="\/theme-init\.js"><\/script>/);
    expect(head).toContain('<meta name="color-scheme" content="dark light" />');
    expect(head.indexOf('name="color-scheme"')).toBeLessThan(head.indexOf('src="/theme-init.js"'));
  });
});
