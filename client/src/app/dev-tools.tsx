import { Bug, X } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useConfig } from '@/lib/config-context';
import { useSession } from '@/lib/session';

/**
 * A small panel for local development only (VITE_ENV 'local'): the current route, the
 * session state and the runtime configuration, without reaching for the console.
 */
export function DevTools() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const session = useSession();
  const config = useConfig();

  return (
    <aside aria-label="Developer tools" className="fixed bottom-3 left-3 z-50 text-xs">
      {open ? (
        <div id="dev-tools-panel" className="w-72 rounded-lg border border-slate-700 bg-slate-900 p-3 text-slate-100 shadow-xl on-dark">
          <div className="mb-2 flex items-center justify-between">
            <p className="font-semibold">Developer tools</p>
            <button type="button" onClick={() => setOpen(false)} className="rounded p-1 hover:bg-slate-700" aria-label="Close developer tools">
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 break-all">
            <dt className="text-slate-300">Route</dt>
            <dd>{`${location.pathname}${location.search}${location.hash}`}</dd>
            <dt className="text-slate-300">Session</dt>
            <dd>{session.state === 'signed-in' ? `signed in (${session.user.role ?? 'no role'})` : session.state}</dd>
            <dt className="text-slate-300">Env</dt>
            <dd>{config.env}</dd>
            <dt className="text-slate-300">API</dt>
            <dd>{config.apiBaseUrl}</dd>
            <dt className="text-slate-300">Debug</dt>
            <dd>{String(config.debug)}</dd>
            <dt className="text-slate-300">Main</dt>
            <dd>{config.platformUrls.main}</dd>
          </dl>
        </div>
      ) : (
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="flex items-center gap-1 rounded-full bg-slate-900 px-3 py-1.5 font-semibold text-white shadow-lg hover:bg-slate-700"
        >
          <Bug aria-hidden="true" className="size-3.5" />
          Dev
        </button>
      )}
    </aside>
  );
}
