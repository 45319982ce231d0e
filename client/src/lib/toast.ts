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
