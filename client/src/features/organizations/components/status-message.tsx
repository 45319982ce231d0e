import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';

/** What a visitor sees instead of an account page: a way to sign in and come back here. */
export function SignInPrompt({ returnTo }: { returnTo: string }) {
  return (
    <div className="rounded-2xl bg-paper p-8 text-center shadow-sm ring-1 ring-ink-200">
      <p className="text-lg font-semibold text-ink-900">Please sign in to see your organizations.</p>
      <p className="mt-1 text-ink-600">Your organizations and their members are available once you are signed in.</p>
      <Link to={paths.auth.login.getHref({ redirect: returnTo })} className={`${buttonClass('primary', 'md')} mt-5`}>
        Sign In
      </Link>
    </div>
  );
}
