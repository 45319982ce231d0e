import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import { useConfig } from '@/lib/config-context';
import { usePageRestored } from '@/lib/use-page-restored';
import { failureMessage, needsTwoFactor } from '../api/auth-request';
import { showMagicLink, signInWithMagicLink } from '../api/magic-link';
import { AuthLayout } from '../components/auth-layout';
import { SubmitButton } from '../components/submit-button';
import { useFinishSignIn } from '../hooks/use-finish-sign-in';
import { loginTarget } from '../utils/redirect-target';

/**
 * `/magic-link/{token}`: one "Continue" button. Mail scanners fetch the links they find, so
 * opening the page signs no one in; only the click does. Above it the page names the account
 * the link opens (masked when two-factor is on), so a link someone asked for their own account
 * and sent on is not followed into that account unseen.
 */
/** Only the link's own answers end it: unknown or used (400), expired (410), a suspended account (403). */
const endsTheLink = (error: unknown) => error instanceof ApiError && [400, 403, 410].includes(error.status);

export function MagicLinkPage() {
  const { token } = useParams();
  if (!token) return <Navigate to={paths.auth.login.getHref()} replace />;
  // One page per link: another token starts with nothing of the last one's.
  return <ContinueWithLink key={token} token={token} />;
}

function ContinueWithLink({ token }: { token: string }) {
  const { apiBaseUrl, platformUrls } = useConfig();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const finishSignIn = useFinishSignIn();
  const [isPending, setPending] = useState(false);
  usePageRestored(useCallback(() => setPending(false), []));
  const [failure, setFailure] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);
  // A check that could not be made (the network, a busy server): the link may still be good.
  const [unsure, setUnsure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const accountId = useId();

  useEffect(() => {
    const controller = new AbortController();
    showMagicLink(apiBaseUrl, token, controller.signal).then(setEmail, (error: unknown) => {
      if (controller.signal.aborted) return;
      const message = failureMessage(error, 'Sign-in failed');
      if (endsTheLink(error)) setFailure(message);
      else setUnsure(message);
    });
    return () => controller.abort();
  }, [apiBaseUrl, token, attempt]);

  const onContinue = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    // The page the link was asked from (its `redirect`), under the login page's own rule.
    const target = loginTarget(searchParams.get('redirect'), platformUrls);
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
      // A link that could not be used this time (the network, a busy server) keeps Continue.
      if (endsTheLink(error)) setFailure(message);
      setPending(false);
    }
  };

  return (
    <AuthLayout
      title="Sign in with your link"
      subtitle={
        failure
          ? 'This link cannot sign you in.'
          : unsure
            ? 'Your link could not be checked just now.'
            : 'Press Continue to sign in to your Talent Suite account.'
      }
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
      ) : unsure ? (
        <div className="space-y-4">
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {unsure}
          </p>
          <button
            type="button"
            className={`${buttonClass('secondary', 'lg')} w-full`}
            onClick={() => {
              setUnsure(null);
              setAttempt((count) => count + 1);
            }}
          >
            Try again
          </button>
        </div>
      ) : (
        <form method="post" noValidate onSubmit={(event) => void onContinue(event)} aria-label="Sign in with your link" className="space-y-4">
          {/* Whose account: read with Continue, and announced when it is known. */}
          <p id={accountId} role="status" className="break-words text-center text-ink-700">
            {email ? (
              <>
                Signing in as <strong className="font-semibold text-ink-900">{email}</strong>
              </>
            ) : (
              'Checking your link...'
            )}
          </p>
          {email ? (
            <SubmitButton pending={isPending} describedBy={accountId}>
              {isPending ? 'Signing In...' : 'Continue'}
            </SubmitButton>
          ) : null}
        </form>
      )}
    </AuthLayout>
  );
}
