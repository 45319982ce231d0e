import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { failureMessage, needsTwoFactor } from '../api/auth-request';
import { showMagicLink, signInWithMagicLink } from '../api/magic-link';
import { AuthLayout } from '../components/auth-layout';
import { SubmitButton } from '../components/submit-button';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { loginTarget } from '../utils/redirect-target';

/**
 * `/magic-link/{token}`: one "Continue" button. Mail scanners fetch the links they find, so
 * opening the page signs no one in; only the click does. Above it the page names the account
 * the link opens, so a link someone asked for their own account and sent on is not followed
 * into that account unseen.
 */
export function MagicLinkPage() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.auth.login.getHref()} replace />;
  return <ContinueWithLink token={token} />;
}

function ContinueWithLink({ token }: { token: string }) {
  const { apiBaseUrl, platformUrls } = useConfig();
  const navigate = useNavigate();
  const finishSignIn = useFinishSignIn();
  const [isPending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    showMagicLink(apiBaseUrl, token, controller.signal).then(setEmail, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(failureMessage(error, 'Sign-in failed'));
    });
    return () => controller.abort();
  }, [apiBaseUrl, token]);

  const onContinue = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    const target = loginTarget(null, platformUrls);
    try {
      const result = await signInWithMagicLink(apiBaseUrl, token);
      if (needsTwoFactor(result.data)) {
        accountToast.info(result.message || 'Enter the code from your authenticator app');
        // The login page's code step finishes it, as after a password.
        void navigate(paths.auth.login.getHref(), { state: { twoFactor: { challenge: result.data.challenge, target } } });
        return;
      }
      finishSignIn(result.data, result.message || 'Logged in successfully', target);
    } catch (error) {
      const message = failureMessage(error, 'Sign-in failed');
      accountToast.error(message);
      setFailure(message);
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title="Sign in with your link"
      subtitle={email ? `Press Continue to sign in to your Talent Suite account as ${email}.` : 'Press Continue to sign in to your Talent Suite account.'}
      description="Press Continue to sign in to your Talent Suite account."
    >
      {failure ? (
        <div className="space-y-4">
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {failure}
          </p>
          <p className="text-center text-sm text-ink-700">
            <Link to={paths.auth.login.getHref()} className="font-semibold text-accent hover:underline">
              Back to Sign In
            </Link>{' '}
            to ask for a new link.
          </p>
        </div>
      ) : email ? (
        <form method="post" noValidate onSubmit={(event) => void onContinue(event)} aria-label="Sign in with your link">
          <SubmitButton pending={isPending}>{isPending ? 'Signing In...' : 'Continue'}</SubmitButton>
        </form>
      ) : (
        <p role="status" className="text-center text-ink-700">
          Checking your link...
        </p>
      )}
    </AuthLayout>
  );
}
