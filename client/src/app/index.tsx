import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { AppConfig } from '@/lib/config';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App({ config }: { config: AppConfig }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider config={config}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
