import type { ReactNode } from 'react';
import { ToastContainer } from 'react-toastify';
import type { AppConfig } from '@/lib/config';
import { ConfigProvider } from '@/lib/config-context';
import { useAppliedTheme } from '@/lib/use-theme';

/** SPEC.md section 9: toasts sit top-right and close after 5000 ms by default. */
export const TOAST_AUTO_CLOSE_MS = 5000;

export function AppProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  const theme = useAppliedTheme();
  return (
    <ConfigProvider config={config}>
      {children}
      <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} newestOnTop closeOnClick pauseOnFocusLoss theme={theme} />
    </ConfigProvider>
  );
}
