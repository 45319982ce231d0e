/**
 * The site's colour theme. The whole palette hangs off one attribute, `<html data-theme>`
 * (see index.css), so switching is one DOM write and every mounted page follows at once.
 * `public/theme-init.js` makes the same choice before first paint; this module takes over
 * once the app runs and knows whether someone is signed in.
 */
export type Theme = 'light' | 'dark';

/** SPEC.md section 3: a user's theme preference defaults to dark. */
export const DEFAULT_THEME: Theme = 'dark';

/** Matches only an explicit light system setting: no preference means SPEC.md's dark. */
export const SYSTEM_LIGHT_QUERY = '(prefers-color-scheme: light)';

export const parseTheme = (value: unknown): Theme | null => (value === 'light' || value === 'dark' ? value : null);

/** A user's saved `preferences.theme`; anything but 'light' (missing, unknown) is the default. */
export const userTheme = (preference: string | null | undefined): Theme => parseTheme(preference) ?? DEFAULT_THEME;

/** The operating system's setting, or the default where the browser cannot tell. */
export function systemTheme(win: Pick<Window, 'matchMedia'> = window): Theme {
  return typeof win.matchMedia === 'function' && win.matchMedia(SYSTEM_LIGHT_QUERY).matches ? 'light' : DEFAULT_THEME;
}

export type ThemeInputs =
  | { session: 'signed-in'; preference: string | null | undefined }
  | { session: 'signed-out'; system: Theme }
  | { session: 'loading'; remembered: Theme | null; system: Theme };

/**
 * Which theme to show: a signed-in user's saved preference; a visitor's system setting; and
 * while the session check runs, what the first paint showed (the remembered choice of the
 * last signed-in user on this browser, else the system setting) so nothing flips twice.
 */
export function resolveTheme(inputs: ThemeInputs): Theme {
  switch (inputs.session) {
    case 'signed-in':
      return userTheme(inputs.preference);
    case 'signed-out':
      return inputs.system;
    case 'loading':
      return inputs.remembered ?? inputs.system;
  }
}

const listeners = new Set<() => void>();

/** The theme on the page now (what theme-init.js or the last `applyTheme` set). */
export function appliedTheme(doc: Document = document): Theme {
  return parseTheme(doc.documentElement.dataset.theme) ?? DEFAULT_THEME;
}

/**
 * Shows `theme` on the whole page: the attribute the palette keys on, and the color-scheme
 * meta that tells the browser which way to draw scrollbars, form controls and the canvas.
 */
export function applyTheme(theme: Theme, doc: Document = document): void {
  const root = doc.documentElement;
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  doc.querySelector('meta[name="color-scheme"]')?.setAttribute('content', theme);
  listeners.forEach((listener) => listener());
}

/** For `useSyncExternalStore`: called whenever `applyTheme` changes the page's theme. */
export function subscribeToAppliedTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
