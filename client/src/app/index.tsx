import { BrowserRouter } from 'react-router-dom';
import type { AppConfig } from '@/lib/config';
import { AppProvider } from './provider';
import { AppRoutes } from './routes';

export function App({ config }: { config: AppConfig }) {
  return (
    <AppProvider config={config}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
