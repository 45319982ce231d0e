import { Building2, ExternalLink, LayoutDashboard, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { dashboardHref } from '@/lib/dashboard-url';
import { isAdmin } from '@/lib/roles';
import type { SessionUser } from '@/lib/session-store';
import { NavDropdown } from './nav-dropdown';
import { useOrganizationsEntry } from './use-organizations-entry';
import { displayEmail, displayName, initialOf } from './user-display';

type AccountMenuProps = {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onNavigate: () => void;
  onLogout: () => void;
  logoutPending: boolean;
};

const itemClass =
  'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-ink-700 hover:bg-ink-100 hover:text-ink-900';

/** Signed-in header: avatar initial, name (truncated at 120px) and the account menu. */
export function AccountMenu({ user, open, onOpenChange, onNavigate, onLogout, logoutPending }: AccountMenuProps) {
  const { platformUrls, signInUrls } = useConfig();
  const name = displayName(user);
  const organizations = useOrganizationsEntry(user, open);
  return (
    <NavDropdown
      open={open}
      onOpenChange={onOpenChange}
      align="end"
      buttonAriaLabel={`Account menu for ${name}`}
      buttonClassName="pl-1.5"
      panelClassName="w-64"
      label={
        <>
          <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-indigo-700 text-sm font-bold text-white">
            {initialOf(user)}
          </span>
          <span className="max-w-[120px] truncate" data-testid="header-user-name">
            {name}
          </span>
        </>
      }
    >
      <div className="border-b border-ink-100 px-4 py-3">
        <p className="truncate text-sm font-semibold text-ink-900">{name}</p>
        <p className="truncate text-sm text-ink-600">{displayEmail(user)}</p>
      </div>
      <ul className="p-2">
        <li>
          <a href={dashboardHref(user.role, platformUrls, signInUrls)} target="_blank" rel="noopener noreferrer" onClick={onNavigate} className={itemClass}>
            <LayoutDashboard aria-hidden="true" className="size-4" />
            Dashboard
            <ExternalLink aria-hidden="true" className="ml-auto size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </li>
        <li>
          <Link to={paths.profile.getHref()} onClick={onNavigate} className={itemClass}>
            <UserRound aria-hidden="true" className="size-4" />
            Profile
          </Link>
        </li>
        {organizations ? (
          <li>
            <Link to={paths.organizations.getHref()} onClick={onNavigate} className={itemClass}>
              <Building2 aria-hidden="true" className="size-4" />
              Organizations
            </Link>
          </li>
        ) : null}
        {/* Only admins are shown the console; for anyone else /admin is a 404 page. */}
        {isAdmin(user) ? (
          <li>
            <Link to={paths.admin.getHref()} onClick={onNavigate} className={itemClass}>
              <ShieldCheck aria-hidden="true" className="size-4" />
              Admin
            </Link>
          </li>
        ) : null}
        <li>
          <button type="button" onClick={onLogout} disabled={logoutPending} className={`${itemClass} text-danger hover:bg-danger-soft hover:text-danger-strong`}>
            <LogOut aria-hidden="true" className="size-4" />
            Logout
          </button>
        </li>
      </ul>
    </NavDropdown>
  );
}
