import { ApolloProvider } from '@apollo/client/react';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { graphQLErrorCode, graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { markSignedOut, useSession } from '@/lib/session';
import { clearStoredToken } from '@/lib/token-storage';
import { usePageMeta } from '@/lib/use-page-meta';
import { useChangePassword } from '../api/change-password';
import { useAccount, useDeleteAccount } from '../api/delete-account';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';
import { ApplicationsSection } from '../components/applications-section';
import { ChangePasswordForm } from '../components/change-password-form';
import { ConnectedAccountsSection } from '../components/connected-accounts-section';
import { DeleteAccountForm } from '../components/delete-account-form';
import { PasskeysSection } from '../components/passkeys-section';
import { SessionsList } from '../components/sessions-list';
import { TwoFactorSection } from '../components/two-factor-section';
import { validateChangePassword, type ChangePasswordErrors, type ChangePasswordField, type ChangePasswordValues } from '../utils/change-password-form';

/**
 * `/security`: the password, two-factor, passkeys and connected accounts (REST), signed-in
 * devices and applications (Apollo, lazily loaded).
 */
export function SecurityPage() {
  const client = useSharedApolloClient();
  usePageMeta('Security', 'Change your password, turn on two-factor sign-in, add passkeys, connect sign-in accounts, and see or sign out the devices signed in to your account.');
  return (
    <div className="flex-1 bg-ink-50 px-4 py-8 sm:py-12">
      <div className="mx-auto max-w-4xl">
        <h1 className="mb-6 text-3xl font-bold text-ink-900">Security</h1>
        <ApolloProvider client={client}>
          <SecurityGate />
        </ApolloProvider>
      </div>
    </div>
  );
}

function Loading() {
  return (
    <p role="status" className="flex items-center gap-2 text-ink-700">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
      Loading security settings...
    </p>
  );
}

function SignInPrompt() {
  return (
    <div className="rounded-2xl bg-paper p-8 text-center shadow-sm ring-1 ring-ink-200">
      <p className="text-lg font-semibold text-ink-900">Please sign in to manage your account's security.</p>
      <p className="mt-1 text-ink-600">Your password and devices are available once you are signed in.</p>
      <Link to={`${paths.auth.login.getHref()}?redirect=${encodeURIComponent(paths.security.getHref())}`} className={`${buttonClass('primary', 'md')} mt-5`}>
        Sign In
      </Link>
    </div>
  );
}

function SecurityGate() {
  const session = useSession();
  if (session.state === 'loading') return <Loading />;
  if (session.state === 'signed-out') return <SignInPrompt />;
  return <SecuritySections />;
}

function SecuritySections() {
  // "Confirm it's you" offers an authenticator code when two-factor is on.
  const twoFactorEnabled = useAccount().data?.me.twoFactorEnabled ?? false;
  return (
    <div className="grid gap-6">
      <ChangePasswordSection />
      <TwoFactorGate />
      <PasskeysSection twoFactorEnabled={twoFactorEnabled} />
      <ConnectedAccountsSection twoFactorEnabled={twoFactorEnabled} />
      <SessionsSection />
      <ApplicationsSection />
      <DeleteAccountSection />
    </div>
  );
}

function ChangePasswordSection() {
  const [changePassword, { loading }] = useChangePassword();
  const { data: account } = useAccount();
  const { needsConfirmation, dialog } = useConfirmIdentity(account?.me.twoFactorEnabled ?? false);
  const [errors, setErrors] = useState<ChangePasswordErrors>({});
  const [formKey, setFormKey] = useState(0);
  const edit = (field: ChangePasswordField) => setErrors((current) => ({ ...current, [field]: undefined }));
  const submit = async (values: ChangePasswordValues) => {
    // The server decides whether the account needs its current password (Google accounts may have none).
    const found = validateChangePassword(values, false);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const result = await changePassword({ variables: { input: { ...values, currentPassword: values.currentPassword || undefined } } });
      accountToast.success(result.data?.changePassword.message ?? 'Password changed');
      setFormKey((key) => key + 1);
    } catch (error) {
      // A first password (an account made with Google) needs a recent sign-in.
      if (needsConfirmation(error, () => void submit(values))) return;
      const fields = graphQLFieldErrors(error);
      setErrors(fields);
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
    }
  };
  return (
    <SectionCard title="Change password">
      <p className="mb-4 text-ink-700">Every other device is signed out when your password changes; this one stays signed in.</p>
      <ChangePasswordForm key={formKey} needsCurrent pending={loading} errors={errors} onEdit={edit} onSubmit={(values) => void submit(values)} />
      {dialog}
    </SectionCard>
  );
}

function TwoFactorGate() {
  const { data } = useAccount();
  if (!data) return null;
  return <TwoFactorSection email={data.me.email} enabled={data.me.twoFactorEnabled} />;
}

function SessionsSection() {
  const { data, loading, error } = useSessions();
  const [revoke, revokeState] = useRevokeSession();
  const [revokeOthers, othersState] = useRevokeOtherSessions();
  const pending = revokeState.loading || othersState.loading;
  const run = async (action: () => Promise<{ data?: unknown }>, fallback: string) => {
    try {
      await action();
      accountToast.success(fallback);
    } catch (failure) {
      accountToast.error(graphQLMessage(failure, 'Something went wrong'));
    }
  };
  let body;
  if (loading && !data) body = <Loading />;
  else if (graphQLErrorCode(error) === 'UNAUTHENTICATED') body = <SignInPrompt />;
  else if (!data) body = <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">{graphQLMessage(error, 'Something went wrong')}</p>;
  else
    body = (
      <SessionsList
        sessions={data.sessions}
        pending={pending}
        onRevoke={(id) => void run(() => revoke({ variables: { id } }), 'Session signed out')}
        onRevokeOthers={() => void run(() => revokeOthers(), 'Other sessions signed out')}
      />
    );
  return <SectionCard title="Active sessions">{body}</SectionCard>;
}

function DeleteAccountSection() {
  const { data } = useAccount();
  const [deleteAccount, { loading }] = useDeleteAccount();
  const navigate = useNavigate();
  const { needsConfirmation, dialog } = useConfirmIdentity(data?.me.twoFactorEnabled ?? false);
  if (!data) return null;
  const remove = async () => {
    try {
      const result = await deleteAccount({ variables: { id: data.me.id } });
      clearStoredToken();
      markSignedOut();
      accountToast.success(result.data?.deleteUser.message ?? 'Account deleted');
      void navigate(paths.home.getHref());
    } catch (error) {
      if (needsConfirmation(error, () => void remove())) return;
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
    }
  };
  return (
    <SectionCard title="Delete account">
      <DeleteAccountForm email={data.me.email} pending={loading} onDelete={() => void remove()} />
      {dialog}
    </SectionCard>
  );
}
