import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { accountToast } from '@/lib/account-toast';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useConfirmIdentity } from '@/lib/use-confirm-identity';
import { usePageMeta } from '@/lib/use-page-meta';
import { useSession } from '@/lib/session';
import { useCreateOAuthClient, type CreateOAuthClientInput, type OAuthClientSecret } from '../api/create-oauth-client';
import { useDeleteOAuthClient } from '../api/delete-oauth-client';
import { useOAuthClients, type OAuthClient } from '../api/oauth-clients';
import { useRotateOAuthClientSecret } from '../api/rotate-oauth-client-secret';
import { ClientForm } from '../components/client-form';
import { ClientSecretDialog } from '../components/client-secret-dialog';
import { ClientsList } from '../components/clients-list';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';

const FALLBACK = 'Something went wrong';

type Asking = { action: 'rotate' | 'delete'; client: OAuthClient } | null;

/** `/admin/applications`: the applications that sign people in through Talent Suite (OpenID clients). */
export function AdminApplicationsPage() {
  usePageMeta('Applications · Admin', 'The applications that sign people in through Talent Suite.');
  const { data, loading, error } = useOAuthClients();
  const [createClient, createState] = useCreateOAuthClient();
  const [rotateSecret, rotateState] = useRotateOAuthClientSecret();
  const [deleteClient, deleteState] = useDeleteOAuthClient();
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  // The secret lives here only while its dialog is open: closing it drops the last copy.
  const [secret, setSecret] = useState<{ title: string; shown: OAuthClientSecret } | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  // A new form after each registration, also one made again after "Confirm it's you".
  const [formKey, setFormKey] = useState(0);
  const clients = data?.oauthClients ?? [];
  const session = useSession();
  // Registering, re-keying and deleting make or end credentials: a sign-in that is not recent
  // confirms it's the admin first, then the same change is made.
  const { needsConfirmation, dialog: confirmIdentity } = useConfirmIdentity(session.state === 'signed-in' && session.user.twoFactorEnabled === true);

  const create = async (input: CreateOAuthClientInput): Promise<boolean> => {
    try {
      const result = await createClient({ variables: { input } });
      const created = result.data?.createOAuthClient;
      setFormErrors({});
      if (created) {
        setSecret({ title: `${created.client.name} is registered`, shown: created });
        setFormKey((key) => key + 1);
      }
      return true;
    } catch (failure) {
      // The form keeps what was typed while the dialog is open; confirmed, it is sent again.
      if (needsConfirmation(failure, () => void create(input))) return false;
      setFormErrors(graphQLFieldErrors(failure));
      accountToast.error(graphQLMessage(failure, FALLBACK));
      return false;
    }
  };

  const confirm = async (action: 'rotate' | 'delete', client: OAuthClient) => {
    try {
      if (action === 'rotate') {
        const result = await rotateSecret({ variables: { clientId: client.clientId } });
        const rotated = result.data?.rotateOAuthClientSecret;
        setAsking(null);
        if (rotated) setSecret({ title: `New secret for ${client.name}`, shown: rotated });
      } else {
        const result = await deleteClient({ variables: { clientId: client.clientId } });
        setAsking(null);
        accountToast.success(result.data?.deleteOAuthClient.message || 'Application deleted');
      }
    } catch (failure) {
      setAsking(null);
      if (needsConfirmation(failure, () => void confirm(action, client))) return;
      accountToast.error(graphQLMessage(failure, FALLBACK));
    }
  };

  let list;
  if (loading && !data) list = <LoadingStatus>Loading applications…</LoadingStatus>;
  else if (error && !data) list = <ErrorMessage>{graphQLMessage(error, FALLBACK)}</ErrorMessage>;
  else if (clients.length === 0) list = <p className="text-ink-700">No application is registered yet.</p>;
  else list = <ClientsList clients={clients} busy={rotateState.loading || deleteState.loading} onRotate={(client) => setAsking({ action: 'rotate', client })} onDelete={(client) => setAsking({ action: 'delete', client })} />;

  const pending = rotateState.loading || deleteState.loading;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-ink-900">
          Applications
        </h1>
        <p className="mt-2 max-w-3xl text-ink-700">Applications that sign people in with their Talent Suite account (OpenID Connect clients).</p>
      </div>
      <SectionCard title="Registered applications">{list}</SectionCard>
      <SectionCard title="Register an application">
        <ClientForm key={formKey} pending={createState.loading} errors={formErrors} onCreate={create} />
      </SectionCard>

      <ConfirmDialog
        open={asking !== null}
        title={asking?.action === 'rotate' ? `Give ${asking.client.name} a new secret?` : `Delete ${asking?.client.name ?? 'this application'}?`}
        confirmLabel={asking?.action === 'rotate' ? 'Rotate secret' : 'Delete application'}
        pendingLabel={asking?.action === 'rotate' ? 'Rotating…' : 'Deleting…'}
        pending={pending}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) void confirm(asking.action, asking.client);
        }}
      >
        {asking?.action === 'rotate'
          ? 'The current secret stops working at once: the application cannot sign anyone in until it has the new one.'
          : 'Its tokens and the consents people gave it go with it, and this cannot be undone.'}
      </ConfirmDialog>
      <ClientSecretDialog shown={secret?.shown ?? null} title={secret?.title ?? ''} onClose={() => setSecret(null)} />
      {confirmIdentity}
    </div>
  );
}
