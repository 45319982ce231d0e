import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { preloadPage } from './app/routes';
import { ConfigError } from './app/config-error';
import { loadConfig } from './lib/config';
import { startSessionFromPage } from './lib/session';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const result = loadConfig();
if (!result.ok) {
  createRoot(container).render(<ConfigError message={result.error} />);
} else {
  startSessionFromPage(document);
  const app = (
    <StrictMode>
      <App config={result.config} />
    </StrictMode>
  );
  // A prerendered page (scripts/prerender.mjs) is brought to life where it stands. A page
  // reloaded in the middle of a flow carries router state the build could not know (the
  // sign-in code step, the OTP screen's email): it is drawn afresh instead.
  const routerState = (window.history.state as { usr?: unknown } | null)?.usr;
  if (container.hasAttribute('data-prerendered') && routerState == null) {
    // The page's own code first: hydrating while it is still loading would suspend, and any
    // update meanwhile would replace the page's HTML with the loading state.
    void preloadPage(window.location.pathname)
      .catch(() => undefined)
      // As a transition, React hydrates in slices between which the browser stays responsive,
      // rather than in one long task.
      .then(() => startTransition(() => void hydrateRoot(container, app)));
  } else {
    createRoot(container).render(app);
  }
}
