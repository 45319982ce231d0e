import { Link } from 'react-router-dom';
import { adminPaths } from '@/config/admin-paths';
import type { AuditEvent } from '../api/types';
import { describeDetail, formatDateTime } from '../utils/labels';
import { TableFrame, tdClass, thClass } from './status';

function AccountLink({ id }: { id: string | null }) {
  if (!id) return <span className="text-ink-600">—</span>;
  return (
    <Link to={adminPaths.user.getHref(id)} className="font-mono text-xs text-accent-strong hover:underline">
      {id}
    </Link>
  );
}

type AuditTableProps = {
  events: AuditEvent[];
  /** The user column, left out on a user's own page. */
  showUser?: boolean;
  busy?: boolean;
  label?: string;
};

/** Audit events, newest first: when, what, about whom, by whom, from where, and the detail. */
export function AuditTable({ events, showUser = true, busy = false, label = 'Audit log' }: AuditTableProps) {
  const headings = ['Time', 'Kind', ...(showUser ? ['User'] : []), 'Actor', 'IP address', 'Detail'];
  return (
    <TableFrame label={label}>
      <table aria-busy={busy || undefined} className="min-w-full divide-y divide-ink-200">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className={thClass}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-200">
          {events.map((event) => (
            <tr key={event.id} data-testid="audit-row">
              <td className={`${tdClass} whitespace-nowrap`}>
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              </td>
              <td className={`${tdClass} whitespace-nowrap font-mono text-xs`}>{event.kind}</td>
              {showUser ? (
                <td className={tdClass}>
                  <AccountLink id={event.userId} />
                </td>
              ) : null}
              <td className={tdClass}>
                <AccountLink id={event.actorId} />
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>
                {event.ip ?? '—'}
                {event.userAgent ? (
                  <span className="block max-w-56 truncate text-xs text-ink-600" title={event.userAgent}>
                    {event.userAgent}
                  </span>
                ) : null}
              </td>
              <td className={`${tdClass} min-w-48 break-words`}>{describeDetail(event.detail) || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
