import { parseTheme, type Theme } from './theme';

/**
 * The signed-in user's theme, remembered on this browser so the next page load paints in it
 * before the session check answers. `public/theme-init.js` reads the same key; a visitor has
 * nothing stored and follows the system setting.
 */
export const THEME_STORAGE_KEY = 'theme';

export function readRememberedTheme(): Theme | null {
  try {
    return parseTheme(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return null;
  }
}

export function rememberTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage can be unavailable (private mode, quota); the next load follows the system until the session answers.
  }
}

export function forgetTheme(): void {
  try {
    window.localStorage.removeItem(THEME_STORAGE_KEY);
  } catch {
    // Nothing to forget when storage is unavailable.
  }
}
