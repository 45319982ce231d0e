import { Building2, ExternalLink, LayoutDashboard, LoaderCircle, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { PlatformIcon } from '@/components/platform-icon';
import { paths } from '@/config/paths';
import { platforms } from '@/config/platforms';
import { themeClasses } from '@/config/themes';
import { useConfig } from '@/lib/config-context';
import { dashboardHref } from '@/lib/dashboard-url';
import { isAdmin } from '@/lib/roles';
import type { SessionView } from '@/lib/session';
import type { SessionUser } from '@/lib/session-store';
import { navGroups } from './nav-data';
import { useOrganizationsEntry } from './use-organizations-entry';
import { displayEmail, displayName, initialOf } from './user-display';

type MobileMenuProps = {
  id: string;
  open: boolean;
  session: SessionView;
  onNavigate: () => void;
  onLogout: () => void;
  logoutPending: boolean;
};

const linkClass = 'flex items-center gap-3 rounded-lg px-3 py-2.5 text-base font-medium text-ink-800 hover:bg-ink-100';

function GroupLabel({ children }: { children: ReactNode }) {
  return <p className="px-3 pb-1 pt-4 text-xs font-semibold uppercase tracking-wide text-ink-600">{children}</p>;
}

/** The same links as the desktop header, stacked for phones. Every link closes the menus. */
export function MobileMenu({ id, open, session, onNavigate, onLogout, logoutPending }: MobileMenuProps) {
  const root = useRef<HTMLDivElement>(null);
  // Tabbing past the last item would reach the page under the open menu: it closes instead,
  // as the account menu does when focus leaves it (the header's toggle keeps it open).
  useEffect(() => {
    if (!open) return undefined;
    const onFocusIn = (event: FocusEvent) => {
      const header = root.current?.closest('header');
      if (event.target instanceof Node && header && !header.contains(event.target)) onNavigate();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [open, onNavigate]);
  return (
    <div ref={root} id={id} hidden={!open} className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-ink-200 bg-paper lg:hidden">
      <nav aria-label="Mobile" className="mx-auto max-w-7xl px-4 pb-6 sm:px-6">
        <GroupLabel>Platforms</GroupLabel>
        <ul>
          {platforms.map((platform) => (
            <li key={platform.id}>
              <Link to={platform.path} onClick={onNavigate} className={linkClass}>
                <PlatformIcon id={platform.id} className={`size-5 ${themeClasses[platform.theme].text}`} />
                {platform.name}
              </Link>
            </li>
          ))}
          <li>
            <Link to={paths.solutions.getHref()} onClick={onNavigate} className={linkClass}>
              Explore all solutions
            </Link>
          </li>
        </ul>

        {navGroups.map((group) => (
          <div key={group.id}>
            <GroupLabel>{group.label}</GroupLabel>
            <ul>
              <li>
                <Link to={group.href} onClick={onNavigate} className={linkClass}>
                  {group.label} overview
                </Link>
              </li>
              {group.items.map((item) => (
                <li key={item.href}>
                  <Link to={item.href} onClick={onNavigate} className={linkClass}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}

        <div className="mt-4 border-t border-ink-200 pt-4">
          {session.state === 'loading' ? (
            <p role="status" className="flex items-center gap-2 px-3 py-2 text-ink-600">
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              Loading
            </p>
          ) : null}
          {session.state === 'signed-out' ? (
            <div className="grid grid-cols-2 gap-3">
              <Link to={paths.auth.login.getHref()} onClick={onNavigate} className={buttonClass('secondary')}>
                Sign In
              </Link>
              <Link to={paths.auth.register.getHref()} onClick={onNavigate} className={buttonClass('primary')}>
                Get Started
              </Link>
            </div>
          ) : null}
          {session.state === 'signed-in' ? (
            <MobileAccount user={session.user} open={open} onNavigate={onNavigate} onLogout={onLogout} logoutPending={logoutPending} />
          ) : null}
        </div>
      </nav>
    </div>
  );
}

type MobileAccountProps = Omit<MobileMenuProps, 'id' | 'session'> & { user: SessionUser };

/** The signed-in end of the mobile menu: who is signed in, their pages, and Logout. */
function MobileAccount({ user, open, onNavigate, onLogout, logoutPending }: MobileAccountProps) {
  const { platformUrls, signInUrls } = useConfig();
  const organizations = useOrganizationsEntry(user, open);
  return (
    <div>
      <div className="flex items-center gap-3 px-3 py-2">
        <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-indigo-700 font-bold text-white">
          {initialOf(user)}
        </span>
        <span className="min-w-0">
          <span className="block max-w-[120px] truncate font-semibold text-ink-900">{displayName(user)}</span>
          <span className="block truncate text-sm text-ink-600">{displayEmail(user)}</span>
        </span>
      </div>
      <ul>
        <li>
          <a href={dashboardHref(user.role, platformUrls, signInUrls)} target="_blank" rel="noopener noreferrer" onClick={onNavigate} className={linkClass}>
            <LayoutDashboard aria-hidden="true" className="size-5" />
            Dashboard
            <ExternalLink aria-hidden="true" className="size-4" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </li>
        <li>
          <Link to={paths.profile.getHref()} onClick={onNavigate} className={linkClass}>
            <UserRound aria-hidden="true" className="size-5" />
            Profile
          </Link>
        </li>
        {organizations ? (
          <li>
            <Link to={paths.organizations.getHref()} onClick={onNavigate} className={linkClass}>
              <Building2 aria-hidden="true" className="size-5" />
              Organizations
            </Link>
          </li>
        ) : null}
        {isAdmin(user) ? (
          <li>
            <Link to={paths.admin.getHref()} onClick={onNavigate} className={linkClass}>
              <ShieldCheck aria-hidden="true" className="size-5" />
              Admin
            </Link>
          </li>
        ) : null}
        <li>
          <button type="button" onClick={onLogout} disabled={logoutPending} className={`${linkClass} w-full text-danger`}>
            <LogOut aria-hidden="true" className="size-5" />
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}
