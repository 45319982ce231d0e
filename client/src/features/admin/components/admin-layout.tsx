import { NavLink, Outlet } from 'react-router-dom';
import { adminPaths } from '@/config/admin-paths';

const TABS = [
  { label: 'Users', href: adminPaths.users.getHref() },
  { label: 'Organizations', href: adminPaths.organizations.getHref() },
  { label: 'Audit log', href: adminPaths.audit.getHref() },
  { label: 'Applications', href: adminPaths.applications.getHref() },
  { label: 'News', href: adminPaths.news.getHref() },
] as const;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `inline-block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-semibold ${isActive ? 'bg-indigo-700 text-white' : 'text-ink-700 hover:bg-ink-100 hover:text-ink-900'}`;

/** The console's frame: its name, a link per section (the open one marked), and the section. */
export function AdminLayout() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-accent">Admin console</p>
      <nav aria-label="Admin console" className="mt-3 border-b border-ink-200 pb-3">
        <ul className="flex flex-wrap gap-1">
          {TABS.map((tab) => (
            <li key={tab.href}>
              {/* A user's own page is still under Users. */}
              <NavLink to={tab.href} className={tabClass}>
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
