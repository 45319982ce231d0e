import { LoaderCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import type { SessionView } from '@/lib/session';
import { AccountMenu } from './account-menu';

type SessionAreaProps = {
  session: SessionView;
  accountOpen: boolean;
  onAccountOpenChange: (open: boolean) => void;
  onNavigate: () => void;
  onLogout: () => void;
  logoutPending: boolean;
};

/** The right end of the desktop header: Loading, the account menu, or Sign In / Get Started. */
export function SessionArea({ session, accountOpen, onAccountOpenChange, onNavigate, onLogout, logoutPending }: SessionAreaProps) {
  if (session.state === 'loading') {
    return (
      <span role="status" className="inline-flex items-center gap-2 px-3 py-2 text-sm font-medium text-ink-600">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        Loading
      </span>
    );
  }
  if (session.state === 'signed-in') {
    return (
      <AccountMenu
        user={session.user}
        open={accountOpen}
        onOpenChange={onAccountOpenChange}
        onNavigate={onNavigate}
        onLogout={onLogout}
        logoutPending={logoutPending}
      />
    );
  }
  return (
    <div className="flex items-center gap-2">
      <Link to={paths.auth.login.getHref()} onClick={onNavigate} className={buttonClass('ghost', 'sm')}>
        Sign In
      </Link>
      <Link to={paths.auth.register.getHref()} onClick={onNavigate} className={buttonClass('primary', 'sm')}>
        Get Started
      </Link>
    </div>
  );
}
