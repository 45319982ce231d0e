import { ApolloProvider } from '@apollo/client/react';
import { LoaderCircle, Pencil, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { markSignedIn, markSignedOut, useSession } from '@/lib/session';
import { clearStoredToken } from '@/lib/token-storage';
import { usePageMeta } from '@/lib/use-page-meta';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { useDeleteUser } from '../api/delete-user';
import { useMe } from '../api/get-me';
import type { ProfileUser } from '../api/profile-user';
import { useUpdateProfile } from '../api/update-profile';
import { AddressDetails, PersonalDetails, PreferenceDetails, SecuritySection, SocialDetails } from '../components/profile-details';
import { ProfileEditForm } from '../components/profile-edit-form';
import { ProfileHeader } from '../components/profile-header';
import { SectionCard } from '@/components/section-card';
import { graphQLErrorCode, graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { formValuesFromUser, toUpdateInput, type ProfileErrorKey, type ProfileFormValues } from '../utils/profile-form';

/** The profile route (a lazy route chunk: Apollo loads with the pages that use it, never with the home page). */
export function ProfilePage() {
  const client = useSharedApolloClient();
  usePageMeta('Profile', 'Your personal information, social profiles, address, preferences and security settings.');
  return (
    <div className="flex-1 bg-ink-50 px-4 py-8 sm:py-12">
      <div className="mx-auto max-w-4xl">
        <h1 className="mb-6 text-3xl font-bold text-ink-900">Profile</h1>
        <ApolloProvider client={client}>
          <ProfileGate />
        </ApolloProvider>
      </div>
    </div>
  );
}

function LoadingProfile() {
  return (
    <p role="status" className="flex items-center gap-2 text-ink-700">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
      Loading profile...
    </p>
  );
}

function SignInPrompt() {
  return (
    <div className="rounded-2xl bg-paper p-8 text-center shadow-sm ring-1 ring-ink-200">
      <p className="text-lg font-semibold text-ink-900">Please sign in to view your profile.</p>
      <p className="mt-1 text-ink-600">Your profile is available once you are signed in.</p>
      <Link to={`${paths.auth.login.getHref()}?redirect=${encodeURIComponent(paths.profile.getHref())}`} className={`${buttonClass('primary', 'md')} mt-5`}>
        Sign In
      </Link>
    </div>
  );
}

/** SPEC.md section 4: the profile is fetched only once the verify call says signed in. */
function ProfileGate() {
  const session = useSession();
  if (session.state === 'loading') return <LoadingProfile />;
  if (session.state === 'signed-out') return <SignInPrompt />;
  return <ProfileContent />;
}

function ProfileContent() {
  const { data, loading, error } = useMe();
  // The profile is the freshest copy of the user: the header and the site's theme follow it
  // (the session check may be up to 10 minutes old, or from before a change on another device).
  const me = data?.me;
  useEffect(() => {
    if (me) markSignedIn(me);
  }, [me]);
  if (loading && !data) return <LoadingProfile />;
  if (graphQLErrorCode(error) === 'UNAUTHENTICATED') return <SignInPrompt />;
  if (!data) {
    return (
      <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
        {graphQLMessage(error, 'Something went wrong')}
      </p>
    );
  }
  return <ProfileScreen user={data.me} />;
}

function ProfileScreen({ user }: { user: ProfileUser }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [updateProfile, updateState] = useUpdateProfile();
  const [deleteUser, deleteState] = useDeleteUser();
  const initialValues = useMemo(() => formValuesFromUser(user), [user]);
  const closeDelete = useCallback(() => setConfirmingDelete(false), []);
  const { needsConfirmation, dialog } = useConfirmIdentity(user.twoFactorEnabled);

  const save = async (values: ProfileFormValues): Promise<Partial<Record<ProfileErrorKey, string>>> => {
    try {
      const result = await updateProfile({ variables: { input: toUpdateInput(values, initialValues) } });
      const updated = result.data?.updateProfile;
      if (updated) markSignedIn(updated.user);
      accountToast.success(updated?.message || 'Profile updated');
      setEditing(false);
      return {};
    } catch (error) {
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
      return graphQLFieldErrors(error);
    }
  };

  const confirmDelete = async () => {
    try {
      const result = await deleteUser({ variables: { id: user.id } });
      clearStoredToken();
      markSignedOut();
      accountToast.success(result.data?.deleteUser.message || 'Account deleted');
      void navigate(paths.home.getHref());
    } catch (error) {
      setConfirmingDelete(false);
      if (needsConfirmation(error, () => void confirmDelete())) return;
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
    }
  };

  const actions = editing ? null : (
    <>
      <button type="button" onClick={() => setEditing(true)} className={buttonClass('light', 'md')}>
        <Pencil aria-hidden="true" className="size-4" />
        Edit profile
      </button>
      <button type="button" onClick={() => setConfirmingDelete(true)} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
        <Trash2 aria-hidden="true" className="size-4" />
        Delete account
      </button>
    </>
  );

  return (
    <div className="space-y-6">
      <ProfileHeader user={user} actions={actions} />
      {editing ? (
        <ProfileEditForm user={user} initialValues={initialValues} pending={updateState.loading} onSave={save} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <SectionCard title="Personal Information">
            <PersonalDetails user={user} />
          </SectionCard>
          <SectionCard title="Social Profiles">
            <SocialDetails user={user} />
          </SectionCard>
          <SectionCard title="Address">
            <AddressDetails user={user} />
          </SectionCard>
          <SectionCard title="Preferences">
            <PreferenceDetails user={user} />
          </SectionCard>
        </>
      )}
      <SecuritySection twoFactorEnabled={user.twoFactorEnabled} />
      <ConfirmDialog
        open={confirmingDelete}
        title="Delete your account?"
        confirmLabel="Delete account"
        pendingLabel="Deleting..."
        pending={deleteState.loading}
        onCancel={closeDelete}
        onConfirm={() => void confirmDelete()}
      >
        This permanently deletes your account, signs you out everywhere and cannot be undone.
      </ConfirmDialog>
      {dialog}
    </div>
  );
}
