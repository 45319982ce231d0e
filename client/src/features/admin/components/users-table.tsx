import { Link } from 'react-router-dom';
import { adminPaths } from '@/config/admin-paths';
import type { AdminUser } from '../api/types';
import { formatDate, formatDateTime, labelOf, ROLE_LABELS } from '../utils/labels';
import { StatusBadge, YesNo } from './badges';
import { TableFrame, tdClass, thClass } from './status';

/** One row per account; the name opens the account's page. */
export function UsersTable({ users, busy }: { users: AdminUser[]; busy: boolean }) {
  return (
    <TableFrame label="Users">
      <table aria-busy={busy || undefined} className="min-w-full divide-y divide-ink-200">
        <caption className="sr-only">Users</caption>
        <thead>
          <tr>
            {['Name', 'Email', 'Role', 'Status', 'Verified', 'Two-factor', 'Last sign-in', 'Created'].map((heading) => (
              <th key={heading} scope="col" className={thClass}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-200">
          {users.map((user) => (
            <tr key={user.id} data-testid="user-row">
              <th scope="row" className={`${tdClass} text-left font-semibold`}>
                <Link to={adminPaths.user.getHref(user.id)} className="text-accent-strong hover:underline">
                  {user.name || user.email}
                </Link>
              </th>
              <td className={`${tdClass} whitespace-nowrap`}>{user.email}</td>
              <td className={tdClass}>{labelOf(ROLE_LABELS, user.role)}</td>
              <td className={tdClass}>
                <StatusBadge status={user.status} />
              </td>
              <td className={tdClass}>
                <YesNo value={user.emailVerified} />
              </td>
              <td className={tdClass}>
                <YesNo value={user.twoFactorEnabled} />
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(user.lastSignInAt)}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{formatDate(user.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
