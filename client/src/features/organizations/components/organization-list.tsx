import { Building2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { badgeTone } from '@/components/badge-styles';
import { paths } from '@/config/paths';
import type { Organization } from '../api/types';
import { KIND_LABELS, memberCountLabel, ROLE_LABELS } from '../utils/labels';

/** The caller's organizations: name (to its page), kind, the caller's role and how many belong. */
export function OrganizationList({ organizations }: { organizations: Organization[] }) {
  return (
    <ul className="divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200">
      {organizations.map((organization) => (
        <li key={organization.id} data-testid="organization" className="flex flex-wrap items-center gap-3 px-4 py-3">
          <Building2 aria-hidden="true" className="size-5 shrink-0 text-ink-500" />
          <div className="min-w-0 flex-1">
            <p className="break-words font-semibold text-ink-900">
              <Link to={paths.organization.getHref(organization.id)} className="text-accent-strong hover:underline">
                {organization.name}
              </Link>
            </p>
            <p className="text-sm text-ink-700">
              {KIND_LABELS[organization.kind]} · {memberCountLabel(organization.memberCount)}
            </p>
          </div>
          {organization.myRole ? (
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeTone.neutral}`}>
              <span className="sr-only">Your role: </span>
              {ROLE_LABELS[organization.myRole]}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
