import { LoaderCircle } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import type { SessionView } from '@/lib/session';

type SessionAreaProps = {
  session: SessionView;
  accountOpen: boolean;
  onAccountOpenChange: (open: boolean) => void;
  onNavigate: () => void;
  onLogout: () => void;
  logoutPending: boolean;
};

// Only a signed-in header needs the account menu; visitors never download it.
const AccountMenu = lazy(() => import('./account-menu').then((module) => ({ default: module.AccountMenu })));

function Loading() {
  return (
    <span role="status" className="inline-flex items-center gap-2 px-3 py-2 text-sm font-medium text-ink-600">
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      Loading
    </span>
  );
}

/** The right end of the desktop header: Loading, the account menu, or Sign In / Get Started. */
export function SessionArea({ session, accountOpen, onAccountOpenChange, onNavigate, onLogout, logoutPending }: SessionAreaProps) {
  if (session.state === 'loading') return <Loading />;
  if (session.state === 'signed-in') {
    return (
      <Suspense fallback={<Loading />}>
        <AccountMenu
        user={session.user}
        open={accountOpen}
        onOpenChange={onAccountOpenChange}
        onNavigate={onNavigate}
        onLogout={onLogout}
        logoutPending={logoutPending}
        />
      </Suspense>
    );
  }
  return (
    <div data-visitor-actions className="flex items-center gap-2">
      <Link to={paths.auth.login.getHref()} onClick={onNavigate} className={buttonClass('ghost', 'sm')}>
        Sign In
      </Link>
      <Link to={paths.auth.register.getHref()} onClick={onNavigate} className={buttonClass('primary', 'sm')}>
        Get Started
      </Link>
    </div>
  );
}
