import type { ReactNode } from 'react';
import type { ProfileUser } from '../api/profile-user';

const capitalise = (value: string) => (value ? value[0]!.toUpperCase() + value.slice(1) : value);

export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'active' ? 'bg-emerald-100 text-emerald-900' : status === 'suspended' ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900';
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>{capitalise(status)}</span>;
}

/** The profile's header: initial, name, role and status, with the page's actions. */
export function ProfileHeader({ user, actions }: { user: ProfileUser; actions: ReactNode }) {
  const initial = (user.name.trim()[0] ?? user.email[0] ?? '?').toUpperCase();
  return (
    <div className="flex flex-col gap-5 rounded-2xl bg-gradient-to-br from-indigo-700 via-indigo-800 to-slate-900 p-6 text-white shadow-lg sm:flex-row sm:items-center sm:justify-between sm:p-8">
      <div className="flex min-w-0 items-center gap-4">
        <span aria-hidden="true" className="flex size-16 shrink-0 items-center justify-center rounded-full bg-white text-2xl font-bold text-indigo-800">
          {initial}
        </span>
        <div className="min-w-0">
          <p className="truncate text-2xl font-bold">{user.name}</p>
          <p className="truncate text-indigo-100">{user.email}</p>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
            <span className="sr-only">Role: </span>
            <span className="rounded-full bg-white/15 px-2.5 py-0.5 font-semibold ring-1 ring-white/40">{capitalise(user.role)}</span>
            <span className="sr-only">Status: </span>
            <StatusBadge status={user.status} />
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  );
}
