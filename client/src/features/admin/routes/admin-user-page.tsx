import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SectionCard } from '@/components/section-card';
import { adminPaths } from '@/config/admin-paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { useSession } from '@/lib/session';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { usePageMeta } from '@/lib/use-page-meta';
import { changeRole } from '../api/change-role';
import { deleteUser } from '../api/delete-user';
import { endSession } from '../api/end-session';
import { getUser } from '../api/get-user';
import { failureMessage, fieldErrorsOf, statusOf, type ApiResult } from '../api/request';
import { resendVerification } from '../api/resend-verification';
import { restoreUser } from '../api/restore-user';
import { signOutUser } from '../api/sign-out-user';
import { suspendUser } from '../api/suspend-user';
import type { AdminSession, AdminUserDetails, UserRole } from '../api/types';
import { AuditTable } from '../components/audit-table';
import { StatusBadge } from '../components/badges';
import { DeleteUserDialog } from '../components/delete-user-dialog';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';
import { SuspendDialog } from '../components/suspend-dialog';
import { ChangeRoleForm, UserActions, type UserAction } from '../components/user-actions';
import { IdentitiesDetails, OrganizationsDetails, PasskeysDetails, ProfileDetails, SessionsDetails } from '../components/user-sections';
import { useDetails } from '../hooks/use-details';
import { labelOf, ROLE_LABELS } from '../utils/labels';

function BackLink() {
  return (
    <Link to={adminPaths.users.getHref()} className="text-sm font-semibold text-accent-strong hover:underline">
      ← All users
    </Link>
  );
}

/** `/admin/users/{id}`: one account with everything hanging off it, and what an admin can do to it. */
export function AdminUserPage() {
  const { id = '' } = useParams();
  const { apiBaseUrl } = useConfig();
  const { details, refresh, setData } = useDetails(id, (signal) => getUser(apiBaseUrl, id, signal));
  const notFound = details.status === 'error' && statusOf(details.error) === 404;
  usePageMeta(details.status === 'ready' ? `${details.data.user.name || details.data.user.email} · Admin` : 'User · Admin', 'An account as the admin console shows it.');

  if (details.status === 'ready') return <UserScreen details={details.data} refresh={refresh} setData={setData} />;
  return (
    <div className="grid gap-4">
      <BackLink />
      <h1 className="text-3xl font-bold tracking-tight text-ink-900">{notFound ? 'User not found' : 'User'}</h1>
      {details.status === 'loading' ? <LoadingStatus>Loading user…</LoadingStatus> : null}
      {details.status === 'error' ? notFound ? <p className="text-ink-700">It may have been deleted.</p> : <ErrorMessage>{failureMessage(details.error)}</ErrorMessage> : null}
    </div>
  );
}

type UserScreenProps = {
  details: AdminUserDetails;
  refresh: () => Promise<void>;
  setData: (change: (data: AdminUserDetails) => AdminUserDetails) => void;
};

function UserScreen({ details, refresh, setData }: UserScreenProps) {
  const { user } = details;
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const session = useSession();
  const me = session.state === 'signed-in' ? session.user : null;
  const isSelf = me?.id === user.id;
  const [pending, setPending] = useState<UserAction | null>(null);
  const [pendingSession, setPendingSession] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'suspend' | 'delete' | null>(null);
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [roleError, setRoleError] = useState<string | undefined>();
  const { needsConfirmation, dialog: confirmIdentity } = useConfirmIdentity(me?.twoFactorEnabled === true);
  const closeDialog = useCallback(() => {
    setDialog(null);
    setReasonError(undefined);
  }, []);

  /** Runs one call; the server's message is the toast either way. True when it succeeded. */
  const run = async <T,>(action: UserAction, call: () => Promise<ApiResult<T>>, fallback: string, after?: (result: ApiResult<T>) => void): Promise<boolean> => {
    setPending(action);
    try {
      const result = await call();
      accountToast.success(result.message || fallback);
      after?.(result);
      return true;
    } catch (error) {
      accountToast.error(failureMessage(error));
      return false;
    } finally {
      setPending(null);
    }
  };

  const suspend = async (reason: string) => {
    setPending('suspend');
    try {
      const result = await suspendUser(apiBaseUrl, user.id, reason);
      closeDialog();
      accountToast.success(result.message || 'Account suspended');
      void refresh();
    } catch (error) {
      const fieldError = fieldErrorsOf(error).reason;
      if (fieldError) setReasonError(fieldError);
      else closeDialog();
      // A sign-in that is not recent: "Confirm it's you", then the same suspension.
      if (needsConfirmation(error, () => void suspend(reason))) return;
      accountToast.error(failureMessage(error));
    } finally {
      setPending(null);
    }
  };

  const remove = async () => {
    setPending('delete');
    try {
      const result = await deleteUser(apiBaseUrl, user.id);
      accountToast.success(result.message || 'Account deleted');
      void navigate(adminPaths.users.getHref(), { replace: true });
    } catch (error) {
      setDialog(null);
      if (needsConfirmation(error, () => void remove())) return;
      accountToast.error(failureMessage(error));
    } finally {
      setPending(null);
    }
  };

  const saveRole = async (role: UserRole) => {
    setPending('role');
    setRoleError(undefined);
    try {
      const result = await changeRole(apiBaseUrl, user.id, role);
      const updated = result.data?.user;
      setData((current) => ({ ...current, user: { ...current.user, ...(updated ?? { role }) } }));
      accountToast.success(result.message || 'Role updated');
      // The server ended the user's sessions and recorded the change.
      void refresh();
    } catch (error) {
      if (needsConfirmation(error, () => void saveRole(role))) return;
      setRoleError(fieldErrorsOf(error).role);
      accountToast.error(failureMessage(error));
    } finally {
      setPending(null);
    }
  };

  const signOutSession = async (target: AdminSession) => {
    setPendingSession(target.id);
    try {
      const result = await endSession(apiBaseUrl, user.id, target.id);
      accountToast.success(result.message || 'Session signed out');
    } catch (error) {
      accountToast.error(failureMessage(error));
    } finally {
      setPendingSession(null);
      void refresh();
    }
  };

  const name = user.name || user.email;
  return (
    <div className="grid gap-6">
      <BackLink />
      <div>
        <h1 className="break-words text-3xl font-bold tracking-tight text-ink-900">{name}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-ink-700">
          <span className="break-all">{user.email}</span>
          <span aria-hidden="true">·</span>
          <span>{labelOf(ROLE_LABELS, user.role)}</span>
          <StatusBadge status={user.status} />
        </p>
      </div>

      <SectionCard title="Actions">
        {isSelf ? (
          <p className="text-ink-700">This is your own account: change it from your profile and security pages, not here.</p>
        ) : (
          <div className="grid gap-6">
            <UserActions
              user={user}
              pending={pending}
              onSuspend={() => setDialog('suspend')}
              onRestore={() => void run('restore', () => restoreUser(apiBaseUrl, user.id), 'Account restored', () => void refresh())}
              onSignOutEverywhere={() => void run('sign-out', () => signOutUser(apiBaseUrl, user.id), 'Signed out everywhere', () => void refresh())}
              // Refreshed either way: a refusal ("Email is already verified") means the page is out of date.
              onResendVerification={() => void run('resend', () => resendVerification(apiBaseUrl, user.id), 'Verification email sent').then(refresh)}
              onDelete={() => setDialog('delete')}
            />
            <ChangeRoleForm role={user.role} pending={pending === 'role'} error={roleError} onEdit={() => setRoleError(undefined)} onSave={(role) => void saveRole(role)} />
          </div>
        )}
      </SectionCard>

      <SectionCard title="Profile">
        <ProfileDetails user={user} />
      </SectionCard>
      <SectionCard title="Sessions">
        <SessionsDetails sessions={details.sessions} pendingId={pendingSession} onSignOut={(target) => void signOutSession(target)} />
      </SectionCard>
      <SectionCard title="Organizations">
        <OrganizationsDetails organizations={details.organizations} />
      </SectionCard>
      <SectionCard title="Connected providers">
        <IdentitiesDetails identities={details.identities} />
      </SectionCard>
      <SectionCard title="Passkeys">
        <PasskeysDetails passkeys={details.passkeys} />
      </SectionCard>
      <SectionCard
        title="Audit trail"
        action={
          <Link to={adminPaths.audit.getHref({ userId: user.id })} className="text-sm font-semibold text-accent-strong hover:underline">
            Open in the audit log
          </Link>
        }
      >
        {details.audit.length === 0 ? <p className="text-ink-700">Nothing recorded yet.</p> : <AuditTable events={details.audit} showUser={false} label={`Audit trail of ${name}`} />}
      </SectionCard>

      <SuspendDialog
        open={dialog === 'suspend'}
        name={name}
        pending={pending === 'suspend'}
        serverError={reasonError}
        onEdit={() => setReasonError(undefined)}
        onCancel={closeDialog}
        onConfirm={(reason) => void suspend(reason)}
      />
      <DeleteUserDialog open={dialog === 'delete'} email={user.email} pending={pending === 'delete'} onCancel={closeDialog} onConfirm={() => void remove()} />
      {confirmIdentity}
    </div>
  );
}
