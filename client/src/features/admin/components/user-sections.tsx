import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { DetailRow } from '@/components/section-card';
import { paths } from '@/config/paths';
import type { AdminSession, AdminUser, UserIdentity, UserOrganization, UserPasskey } from '../api/types';
import { formatDateTime, KIND_LABELS, labelOf, MEMBER_ROLE_LABELS, providerLabel, ROLE_LABELS } from '../utils/labels';
import { StatusBadge, YesNo } from './badges';

const listClass = 'divide-y divide-ink-200 rounded-xl ring-1 ring-ink-200';
const emptyClass = 'text-ink-700';

/** The account's own fields. */
export function ProfileDetails({ user }: { user: AdminUser }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <DetailRow label="Name" value={user.name} />
      <DetailRow label="Email" value={user.email} />
      <DetailRow label="Phone" value={user.phone} />
      <DetailRow label="Role" value={labelOf(ROLE_LABELS, user.role)} />
      <DetailRow label="Status" value={<StatusBadge status={user.status} />} />
      <DetailRow label="Email verified" value={<YesNo value={user.emailVerified} />} />
      <DetailRow label="Two-factor" value={<YesNo value={user.twoFactorEnabled} />} />
      <DetailRow label="Last sign-in" value={formatDateTime(user.lastSignInAt)} />
      <DetailRow label="Created" value={formatDateTime(user.createdAt)} />
      <DetailRow label="User id" value={<span className="font-mono text-sm">{user.id}</span>} />
    </dl>
  );
}

type SessionsProps = { sessions: AdminSession[]; pendingId: string | null; onSignOut: (session: AdminSession) => void };

/** Each signed-in device of the account, each with its own "Sign out". */
export function SessionsDetails({ sessions, pendingId, onSignOut }: SessionsProps) {
  if (sessions.length === 0) return <p className={emptyClass}>No signed-in sessions.</p>;
  return (
    <ul className={listClass}>
      {sessions.map((session) => (
        <li key={session.id} data-testid="session" className="flex flex-wrap items-center gap-3 px-4 py-3">
          <div className="min-w-0 flex-1 basis-56">
            <p className="font-medium text-ink-900">
              {session.browser} on {session.os}
            </p>
            <p className="text-sm text-ink-700">
              {session.ip ?? 'Unknown address'} · signed in {formatDateTime(session.signedInAt)} · last active {formatDateTime(session.lastActiveAt)}
            </p>
          </div>
          <button
            type="button"
            disabled={pendingId !== null}
            onClick={() => onSignOut(session)}
            aria-label={`${pendingId === session.id ? 'Signing out' : 'Sign out'} ${session.browser} on ${session.os}`}
            className={buttonClass('secondary', 'sm')}
          >
            {pendingId === session.id ? 'Signing out…' : 'Sign out'}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function OrganizationsDetails({ organizations }: { organizations: UserOrganization[] }) {
  if (organizations.length === 0) return <p className={emptyClass}>Not a member of any organization.</p>;
  return (
    <ul className={listClass}>
      {organizations.map((organization) => (
        <li key={organization.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <Link to={paths.organization.getHref(organization.id)} className="font-semibold text-accent-strong hover:underline">
            {organization.name}
          </Link>
          <span className="text-sm text-ink-700">
            {labelOf(KIND_LABELS, organization.kind)} · {labelOf(MEMBER_ROLE_LABELS, organization.role)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function IdentitiesDetails({ identities }: { identities: UserIdentity[] }) {
  if (identities.length === 0) return <p className={emptyClass}>No connected sign-in providers.</p>;
  return (
    <ul className={listClass}>
      {identities.map((identity) => (
        <li key={identity.provider} className="px-4 py-3">
          <p className="font-medium text-ink-900">{providerLabel(identity.provider)}</p>
          <p className="break-all text-sm text-ink-700">
            {identity.email ?? 'No email'} · connected {formatDateTime(identity.linkedAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function PasskeysDetails({ passkeys }: { passkeys: UserPasskey[] }) {
  if (passkeys.length === 0) return <p className={emptyClass}>No passkeys.</p>;
  return (
    <ul className={listClass}>
      {passkeys.map((passkey) => (
        <li key={passkey.id} className="px-4 py-3">
          <p className="break-words font-medium text-ink-900">{passkey.name}</p>
          <p className="text-sm text-ink-700">
            Added {formatDateTime(passkey.createdAt)} · last used {formatDateTime(passkey.lastUsedAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}
