import { MailOpen } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { acceptInvitation } from '../api/accept-invitation';
import { declineInvitation } from '../api/decline-invitation';
import { getInvitation } from '../api/get-invitation';
import { failureMessage, statusOf } from '../api/request';
import type { InvitationDetails } from '../api/types';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';
import { useResource } from '../hooks/use-resource';
import { formatDate, KIND_LABELS, roleWithArticle } from '../utils/labels';

export const NOT_FOUND_TITLE = 'Invitation not found';
export const EXPIRED_TITLE = 'This invitation has expired';
export const DECLINED_TITLE = 'Invitation declined';

function Card({ title, eyebrow, children }: { title: string; eyebrow?: string; children: ReactNode }) {
  return (
    <div className="flex-1 bg-ink-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-xl rounded-2xl bg-paper p-6 shadow-sm ring-1 ring-ink-200 sm:p-8">
        <span className="flex size-12 items-center justify-center rounded-xl bg-accent-soft">
          <MailOpen aria-hidden="true" className="size-6 text-accent" />
        </span>
        {eyebrow ? <p className="mt-4 text-sm font-semibold uppercase tracking-wide text-accent-strong">{eyebrow}</p> : null}
        <h1 className={`${eyebrow ? 'mt-1' : 'mt-4'} break-words text-2xl font-bold text-ink-900 sm:text-3xl`}>{title}</h1>
        <div className="mt-4 grid gap-4">{children}</div>
      </div>
    </div>
  );
}

/** `/invitations/{token}`: who invites whom to what, and a way to accept (signing in first if need be). */
export function InvitationPage() {
  const { token = '' } = useParams();
  const { apiBaseUrl } = useConfig();
  const { resource } = useResource(token, async (signal) => (await getInvitation(apiBaseUrl, token, signal)).data.invitation);
  const [expired, setExpired] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const status = resource.status === 'error' ? statusOf(resource.error) : undefined;
  const title = declined
    ? DECLINED_TITLE
    : expired || status === 410
      ? EXPIRED_TITLE
      : status === 404
        ? NOT_FOUND_TITLE
        : resource.status === 'ready'
          ? `Join ${resource.data.organization.name}`
          : 'Invitation';
  usePageMeta(title, 'An invitation to join an organization on Talent Suite.');

  if (declined) {
    return (
      <Card title={DECLINED_TITLE}>
        <p className="text-ink-700">
          You will not join <strong>{declined}</strong>, and the link no longer works. If you change your mind, ask the person who invited you for a new invitation.
        </p>
      </Card>
    );
  }
  if (expired || status === 410) {
    return (
      <Card title={EXPIRED_TITLE}>
        <p className="text-ink-700">It was revoked, already used, or is past its date. Ask the person who invited you for a new one.</p>
      </Card>
    );
  }
  if (status === 404) {
    return (
      <Card title={NOT_FOUND_TITLE}>
        <p className="text-ink-700">Check that the whole link from the email was opened, or ask for a new invitation.</p>
      </Card>
    );
  }
  if (resource.status === 'loading') {
    return (
      <Card title={title}>
        <LoadingStatus>Loading invitation...</LoadingStatus>
      </Card>
    );
  }
  if (resource.status === 'error') {
    return (
      <Card title={title}>
        <ErrorMessage>{failureMessage(resource.error)}</ErrorMessage>
      </Card>
    );
  }
  return (
    <Card title={title} eyebrow={KIND_LABELS[resource.data.organization.kind]}>
      <InvitationBody token={token} invitation={resource.data} onExpired={() => setExpired(true)} onDeclined={() => setDeclined(resource.data.organization.name)} />
    </Card>
  );
}

type BodyProps = { token: string; invitation: InvitationDetails; onExpired: () => void; onDeclined: () => void };

function InvitationBody({ token, invitation, onExpired, onDeclined }: BodyProps) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const session = useSession();
  const [pending, setPending] = useState<'accept' | 'decline' | null>(null);
  const here = paths.invitation.getHref(token);

  // Saying no needs no account: the link came to the invited address alone.
  const decline = async () => {
    setPending('decline');
    try {
      const result = await declineInvitation(apiBaseUrl, token);
      accountToast.success(result.message || DECLINED_TITLE);
      onDeclined();
    } catch (error) {
      accountToast.error(failureMessage(error));
      setPending(null);
      if (statusOf(error) === 410) onExpired();
    }
  };
  const declineButton = (
    <button type="button" disabled={pending !== null} onClick={() => void decline()} className={buttonClass('secondary', 'md')}>
      {pending === 'decline' ? 'Declining…' : 'Decline'}
    </button>
  );

  const accept = async () => {
    setPending('accept');
    try {
      const result = await acceptInvitation(apiBaseUrl, token);
      accountToast.success(result.message || `You joined ${invitation.organization.name}`);
      void navigate(paths.organization.getHref(result.data.organization.id));
    } catch (error) {
      accountToast.error(failureMessage(error));
      setPending(null);
      if (statusOf(error) === 410) onExpired();
    }
  };

  let action;
  if (session.state === 'loading') {
    action = <LoadingStatus>Checking whether you are signed in...</LoadingStatus>;
  } else if (session.state === 'signed-out') {
    action = (
      <>
        <p className="text-ink-700">
          Sign in or create an account with <strong className="break-all">{invitation.email}</strong> to accept it.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to={paths.auth.login.getHref({ redirect: here })} className={buttonClass('primary', 'md')}>
            Sign in
          </Link>
          <Link to={paths.auth.register.getHref({ email: invitation.email, next: here })} className={buttonClass('secondary', 'md')}>
            Register
          </Link>
          {declineButton}
        </div>
      </>
    );
  } else {
    const signedInAs = session.user.email ?? '';
    const otherAddress = signedInAs !== '' && signedInAs.toLowerCase() !== invitation.email.toLowerCase();
    action = (
      <>
        {otherAddress ? (
          <p className="rounded-lg bg-amber-100 px-4 py-3 text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            You are signed in as <strong className="break-all">{signedInAs}</strong>. This invitation is for <strong className="break-all">{invitation.email}</strong>: sign in with that address to accept it.
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button type="button" disabled={pending !== null} onClick={() => void accept()} className={buttonClass('primary', 'md')}>
            {pending === 'accept' ? 'Accepting…' : 'Accept invitation'}
          </button>
          {declineButton}
        </div>
      </>
    );
  }

  return (
    <>
      <p className="text-lg text-ink-800">
        {invitation.invitedBy.name} invites you to join <strong>{invitation.organization.name}</strong> as {roleWithArticle(invitation.role)}.
      </p>
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-sm font-medium text-ink-600">For</dt>
          <dd className="break-all text-ink-900">{invitation.email}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-ink-600">Expires</dt>
          <dd className="text-ink-900">{formatDate(invitation.expiresAt)}</dd>
        </div>
      </dl>
      {action}
    </>
  );
}
