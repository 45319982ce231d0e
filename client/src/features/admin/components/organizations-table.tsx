import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import type { AdminOrganization } from '../api/types';
import { formatDate, KIND_LABELS, labelOf } from '../utils/labels';
import { SeatLimitEditor } from './seat-limit-editor';
import { TableFrame, tdClass, thClass } from './status';

type OrganizationsTableProps = {
  organizations: AdminOrganization[];
  busy: boolean;
  onSaveSeatLimit: (organization: AdminOrganization, seatLimit: number | null) => Promise<string | undefined>;
};

/** One row per organization: members against the seat limit (editable), and its own page. */
export function OrganizationsTable({ organizations, busy, onSaveSeatLimit }: OrganizationsTableProps) {
  return (
    <TableFrame label="Organizations">
      <table aria-busy={busy || undefined} className="min-w-full divide-y divide-ink-200">
        <caption className="sr-only">Organizations</caption>
        <thead>
          <tr>
            {['Name', 'Kind', 'Members', 'Seat limit', 'Created', 'Page'].map((heading) => (
              <th key={heading} scope="col" className={thClass}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-200">
          {organizations.map((organization) => (
            <tr key={organization.id} data-testid="organization-row">
              <th scope="row" className={`${tdClass} text-left`}>
                <span className="block font-semibold text-ink-900">{organization.name}</span>
                <span className="block text-xs font-normal text-ink-600">{organization.slug}</span>
              </th>
              <td className={tdClass}>{labelOf(KIND_LABELS, organization.kind)}</td>
              <td className={tdClass}>{organization.memberCount}</td>
              <td className={tdClass}>
                <SeatLimitEditor organizationName={organization.name} seatLimit={organization.seatLimit} onSave={(seatLimit) => onSaveSeatLimit(organization, seatLimit)} />
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{formatDate(organization.createdAt)}</td>
              <td className={tdClass}>
                <Link to={paths.organization.getHref(organization.id)} aria-label={`Open ${organization.name}`} className="font-semibold text-accent-strong hover:underline">
                  Open
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
