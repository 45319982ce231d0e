import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import type { AppConfig } from '@/lib/config';
import { ConfigProvider } from '@/lib/config-context';
import { showToastFromNavigation, useToastsWanted } from '@/lib/toast';
import { useAppliedTheme } from '@/lib/use-theme';

/** SPEC.md section 9: toasts sit top-right and close after 5000 ms by default. */
export const TOAST_AUTO_CLOSE_MS = 5000;

const ToastContainer = lazy(() => import('react-toastify').then((module) => ({ default: module.ToastContainer })));

export function AppProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  const theme = useAppliedTheme();
  const toastsWanted = useToastsWanted();
  // "Logged in successfully", kept by the page that signed in and then navigated here.
  useEffect(showToastFromNavigation, []);
  return (
    <ConfigProvider config={config}>
      {children}
      {toastsWanted ? (
        <Suspense fallback={null}>
          <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} newestOnTop closeOnClick pauseOnFocusLoss theme={theme} />
        </Suspense>
      ) : null}
    </ConfigProvider>
  );
}
