import { Laptop } from 'lucide-react';
import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import type { AccountSession } from '../api/sessions';

type SessionsListProps = {
  sessions: AccountSession[];
  pending: boolean;
  onRevoke: (id: string) => void;
  onRevokeOthers: () => void;
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Each signed-in device, this one marked; sign out one, or every other one. */
export function SessionsList({ sessions, pending, onRevoke, onRevokeOthers }: SessionsListProps) {
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div>
      <ul className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="session">
            <Laptop aria-hidden="true" className="size-5 text-ink-500" />
            <div className="min-w-0 flex-1">
              <p className="font-medium text-ink-900">
                {session.browser} on {session.os}
                {session.current ? <span className={`ml-2 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.success}`}>This device</span> : null}
              </p>
              <p className="text-sm text-ink-700">
                {session.ip ?? 'Unknown address'} · signed in {when(session.signedInAt)} · last active {when(session.lastActiveAt)}
              </p>
            </div>
            {session.current ? null : (
              <button type="button" disabled={pending} onClick={() => onRevoke(session.id)} className={buttonClass('secondary', 'sm')}>
                Sign out<span className="sr-only"> {session.browser} on {session.os}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <button type="button" disabled={pending} onClick={onRevokeOthers} className={`${buttonClass('secondary', 'md')} mt-4`}>
          Sign out every other session
        </button>
      ) : null}
    </div>
  );
}
