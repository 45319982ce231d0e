import { Menu, Sparkles, X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { useLogout } from '@/lib/logout';
import { isSessionSettled, SIGNED_IN_ATTRIBUTE, useSession } from '@/lib/session';
import { GroupMenu } from './group-menu';
import { navGroups } from './nav-data';
import { PlatformsMenu } from './platforms-menu';
import { SessionArea } from './session-area';

type MenuId = 'platforms' | 'account' | 'mobile' | (typeof navGroups)[number]['id'];

const MOBILE_MENU_ID = 'mobile-menu';

// Phones open the menu on demand: its code loads on the first open (or a touch of the button).
const loadMobileMenu = () => import('./mobile-menu');
const MobileMenu = lazy(() => loadMobileMenu().then((module) => ({ default: module.MobileMenu })));

/** Sticky site header: brand, Platforms / Resources / Company menus, session area, mobile menu. */
export function Header() {
  const { appName } = useConfig();
  const session = useSession();
  const [openMenu, setOpenMenu] = useState<MenuId | null>(null);
  const closeAll = useCallback(() => setOpenMenu(null), []);
  const { logout, isPending } = useLogout(closeAll);
  const mobileToggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // One handler per menu, stable across renders, so only one menu is open at a time.
  const handlers = useMemo(() => {
    const make = (id: MenuId) => (open: boolean) => setOpenMenu((current) => (open ? id : current === id ? null : current));
    return {
      platforms: make('platforms'),
      account: make('account'),
      groups: Object.fromEntries(navGroups.map((group) => [group.id, make(group.id)])) as Record<string, (open: boolean) => void>,
    };
  }, []);

  useEffect(() => closeAll(), [location.pathname, closeAll]);

  // The page came with the signed-in mark (index.css hides the visitor's buttons under it);
  // once the session is known the header shows it and the mark has done its job.
  useEffect(() => {
    if (isSessionSettled()) document.documentElement.removeAttribute(SIGNED_IN_ATTRIBUTE);
  }, [session.state]);

  const mobileOpen = openMenu === 'mobile';
  const [mobileWanted, setMobileWanted] = useState(false);
  useEffect(() => {
    if (mobileOpen) setMobileWanted(true);
  }, [mobileOpen]);
  useEffect(() => {
    if (!mobileOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenMenu(null);
      mobileToggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [mobileOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-ink-200 bg-paper/95 backdrop-blur supports-[backdrop-filter]:bg-paper/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={paths.home.getHref()} onClick={closeAll} className="flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-ink-900">
          <span className="flex size-9 items-center justify-center rounded-lg bg-indigo-700 text-white">
            <Sparkles aria-hidden="true" className="size-5" />
          </span>
          {appName}
        </Link>

        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          <PlatformsMenu open={openMenu === 'platforms'} onOpenChange={handlers.platforms} onNavigate={closeAll} />
          {navGroups.map((group) => (
            <GroupMenu
              key={group.id}
              group={group}
              open={openMenu === group.id}
              onOpenChange={handlers.groups[group.id] ?? closeAll}
              onNavigate={closeAll}
            />
          ))}
        </nav>

        <div className="hidden lg:block">
          <SessionArea
            session={session}
            accountOpen={openMenu === 'account'}
            onAccountOpenChange={handlers.account}
            onNavigate={closeAll}
            onLogout={() => void logout()}
            logoutPending={isPending}
          />
        </div>

        <button
          ref={mobileToggleRef}
          type="button"
          aria-expanded={mobileOpen}
          aria-controls={MOBILE_MENU_ID}
          onPointerEnter={() => void loadMobileMenu()}
          onClick={() => setOpenMenu(mobileOpen ? null : 'mobile')}
          className="inline-flex items-center justify-center rounded-lg p-2 text-ink-700 hover:bg-ink-100 lg:hidden"
        >
          {mobileOpen ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
          <span className="sr-only">{mobileOpen ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>

      {mobileOpen || mobileWanted ? (
        <Suspense fallback={<div id={MOBILE_MENU_ID} hidden />}>
          <MobileMenu
            id={MOBILE_MENU_ID}
            open={mobileOpen}
            session={session}
            onNavigate={closeAll}
            onLogout={() => void logout()}
            logoutPending={isPending}
          />
        </Suspense>
      ) : (
        <div id={MOBILE_MENU_ID} hidden />
      )}
    </header>
  );
}
