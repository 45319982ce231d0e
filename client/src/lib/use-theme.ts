import { useEffect, useSyncExternalStore } from 'react';
import { isSessionSettled, useSession } from './session';
import {
  appliedTheme,
  applyTheme,
  DEFAULT_THEME,
  resolveTheme,
  subscribeToAppliedTheme,
  SYSTEM_LIGHT_QUERY,
  systemTheme,
  type Theme,
  type ThemeInputs,
} from './theme';
import { forgetTheme, readRememberedTheme, rememberTheme } from './theme-storage';

function subscribeToSystemTheme(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(SYSTEM_LIGHT_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** The operating system's light/dark setting, live: it re-renders when the setting changes. */
export const useSystemTheme = (): Theme => useSyncExternalStore(subscribeToSystemTheme, () => systemTheme(), () => DEFAULT_THEME);

/** The theme on the page now, for parts drawn outside the palette (react-toastify's toasts). */
export const useAppliedTheme = (): Theme => useSyncExternalStore(subscribeToAppliedTheme, () => appliedTheme(), () => DEFAULT_THEME);

/**
 * Keeps the page's theme in step with the session: a signed-in user's saved preference
 * (applied the moment the session store holds it, after sign-in, a profile load or a save,
 * and remembered for the next load), or for a visitor the system setting, followed live,
 * with nothing remembered. Mount it once, in the root layout.
 */
export function useThemeSync(): Theme {
  const session = useSession();
  const system = useSystemTheme();
  let inputs: ThemeInputs;
  if (session.state === 'signed-in') inputs = { session: 'signed-in', preference: session.user.preferences?.theme };
  // The render that adopts a prerendered page sees the visitor the HTML was built for; until
  // the session check has answered, that is not a visitor yet, and their choice must stay.
  else if (session.state === 'signed-out' && isSessionSettled()) inputs = { session: 'signed-out', system };
  else inputs = { session: 'loading', remembered: readRememberedTheme(), system };
  const theme = resolveTheme(inputs);
  const state = inputs.session;

  useEffect(() => {
    applyTheme(theme);
    if (state === 'signed-in') rememberTheme(theme);
    else if (state === 'signed-out') forgetTheme();
  }, [theme, state]);

  return theme;
}
