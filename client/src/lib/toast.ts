import { useSyncExternalStore } from 'react';
import type { ToastOptions } from 'react-toastify';

/**
 * The site's toasts, through react-toastify loaded on first use: most visits never show one,
 * so its code stays out of the first page's JavaScript. The provider mounts the container
 * once something is shown; react-toastify queues a toast raised before its container mounts.
 */
type Kind = 'success' | 'error' | 'info';

let wanted = false;
const listeners = new Set<() => void>();

function show(kind: Kind, message: string, options?: ToastOptions): Promise<void> {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  return import('react-toastify').then(({ toast: library }) => {
    library[kind](message, options);
  });
}

/** SPEC.md section 9: toasts of the account screens close after 3 s (the default is 5000 ms). */
export const ACCOUNT_TOAST_MS = 3000;

/**
 * Where a page that leaves with a full-page navigation keeps a toast for the next page of this
 * site (`useFinishSignIn`): it would leave before its toast could be seen.
 */
export const AFTER_NAVIGATION = 'ts_toast_after_navigation';

/** Shows, once, the toast the page before kept for this one (an account screen's toast). */
export function showToastFromNavigation(): void {
  try {
    const message = window.sessionStorage.getItem(AFTER_NAVIGATION);
    if (message === null) return;
    window.sessionStorage.removeItem(AFTER_NAVIGATION);
    void show('success', message, { autoClose: ACCOUNT_TOAST_MS });
  } catch {
    // No storage: nothing was kept.
  }
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether any toast has been asked for yet (the provider then mounts the container). */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
}
