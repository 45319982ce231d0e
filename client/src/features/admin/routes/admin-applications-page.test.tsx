import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import type { OAuthClient } from '../api/oauth-clients';
import { ApolloFrame } from '../testing/apollo-frame';
import { mockAdminApi, reauthenticates } from '../testing/mock-admin-api';
import { AdminApplicationsPage } from './admin-applications-page';

const render = () =>
  renderWithApp(
    <ApolloFrame>
      <AdminApplicationsPage />
    </ApolloFrame>,
    { route: '/admin/applications' },
  );

const typed = (client: OAuthClient) => ({ __typename: 'OAuthClient', ...client });
const partner: OAuthClient = {
  clientId: 'partner-app',
  name: 'Partner App',
  redirectUris: ['https://partner.example/callback'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  public: false,
  firstParty: false,
  idTokenSignedResponseAlg: 'RS256',
};

/** A GraphQL server with a list of clients that create, rotate and delete change. */
function clientsServer(initial: OAuthClient[]) {
  let clients = [...initial];
  return mockAdminApi(
    {},
    {
      graphql: {
        OAuthClients: () => ({ oauthClients: clients.map(typed) }),
        CreateOAuthClient: (variables) => {
          const input = variables.input as Omit<OAuthClient, 'clientId' | 'postLogoutRedirectUris' | 'backchannelLogoutUri'>;
          if (input.redirectUris.some((uri) => !uri.startsWith('https://'))) {
            return { errors: [{ message: 'Redirect URIs must be https', extensions: { code: 'BAD_USER_INPUT', errors: { redirectUris: 'Redirect URIs must be https' } } }] };
          }
          const client = { ...partner, ...input, clientId: 'new-app' };
          clients = [...clients, client];
          return { createOAuthClient: { __typename: 'OAuthClientSecretPayload', client: typed(client), clientSecret: input.public ? null : 's3cret-once' } };
        },
        RotateOAuthClientSecret: () => ({ rotateOAuthClientSecret: { __typename: 'OAuthClientSecretPayload', client: typed(partner), clientSecret: 'n3w-s3cret' } }),
        DeleteOAuthClient: (variables) => {
          clients = clients.filter((client) => client.clientId !== variables.clientId);
          return { deleteOAuthClient: { __typename: 'MessagePayload', message: 'Application deleted' } };
        },
      },
    },
  );
}

describe('AdminApplicationsPage', () => {
  it('registers an application and shows its secret once', async () => {
    const api = clientsServer([partner]);
    const events = userEvent.setup();
    render();
    expect(await screen.findByText('partner-app')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Register an application' });
    await events.click(within(form).getByRole('button', { name: 'Create application' }));
    expect(within(form).getByText('Name is required')).toBeInTheDocument();
    expect(within(form).getByText('At least one redirect URI is required')).toBeInTheDocument();

    await events.type(within(form).getByRole('textbox', { name: /Name/ }), 'Mentor Hub');
    await events.type(within(form).getByRole('textbox', { name: /Redirect URIs/ }), 'http://mentor.example/cb');
    await events.click(within(form).getByRole('button', { name: 'Create application' }));
    expect(await within(form).findByText('Redirect URIs must be https', { selector: 'p' })).toBeInTheDocument();

    await events.clear(within(form).getByRole('textbox', { name: /Redirect URIs/ }));
    await events.type(within(form).getByRole('textbox', { name: /Redirect URIs/ }), 'https://mentor.example/cb{enter}https://mentor.example/cb2');
    await events.click(within(form).getByLabelText(/First-party/));
    const signatures = within(form).getByRole('group', { name: 'ID token signature' });
    expect(within(signatures).getByRole('radio', { name: /RS256/ })).toBeChecked();
    await events.click(within(signatures).getByRole('radio', { name: /EdDSA/ }));
    await events.click(within(form).getByRole('button', { name: 'Create application' }));

    const dialog = await screen.findByRole('dialog', { name: 'Mentor Hub is registered' });
    expect(within(dialog).getByText('s3cret-once')).toBeInTheDocument();
    expect(within(dialog).getByText('new-app')).toBeInTheDocument();
    // The dialog moves focus in an effect after it renders: wait for it.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Copy client secret' })).toHaveFocus());
    expect(api.operations.findLast((operation) => operation.operationName === 'CreateOAuthClient')?.variables).toEqual({
      input: { name: 'Mentor Hub', redirectUris: ['https://mentor.example/cb', 'https://mentor.example/cb2'], firstParty: true, public: false, idTokenSignedResponseAlg: 'EdDSA' },
    });
    await events.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('s3cret-once')).not.toBeInTheDocument();
    expect(await screen.findByText('new-app')).toBeInTheDocument();
    const listed = screen.getAllByTestId('oauth-client');
    expect(listed.map((item) => within(item).getByText(/^ID tokens signed with/).parentElement?.textContent)).toEqual(['ID tokens signed with RS256', 'ID tokens signed with EdDSA']);
    // A new, empty form for the next one.
    const next = screen.getByRole('form', { name: 'Register an application' });
    expect(within(next).getByRole('textbox', { name: /Name/ })).toHaveValue('');
    expect(within(within(next).getByRole('group', { name: 'ID token signature' })).getByRole('radio', { name: /RS256/ })).toBeChecked();
  });

  it('asks a stale sign-in to confirm it is the admin, then rotates the secret it was asked to', async () => {
    let confirmed = false;
    const api = mockAdminApi(
      {},
      {
        graphql: {
          OAuthClients: () => ({ oauthClients: [typed(partner)] }),
          RotateOAuthClientSecret: () =>
            confirmed
              ? { rotateOAuthClientSecret: { __typename: 'OAuthClientSecretPayload', client: typed(partner), clientSecret: 'n3w-s3cret' } }
              : { errors: [{ message: "Please confirm it's you to make this change", extensions: { code: 'REAUTHENTICATION_REQUIRED' } }] },
          Reauthenticate: reauthenticates(() => {
            confirmed = true;
          }),
        },
      },
    );
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Rotate secret of Partner App' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Give Partner App a new secret?' })).getByRole('button', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(screen.queryByText("Please confirm it's you to make this change")).not.toBeInTheDocument();
    await events.type(within(confirm).getByLabelText('Password'), 'adminPass42');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByRole('dialog', { name: 'New secret for Partner App' });
    expect(within(shown).getByText('n3w-s3cret')).toBeInTheDocument();
    expect(api.operations.map((operation) => operation.operationName).filter((name) => name !== 'OAuthClients')).toEqual(['RotateOAuthClientSecret', 'Reauthenticate', 'RotateOAuthClientSecret']);
  });

  it('registers after a stale sign-in confirms it is the admin, and clears the form', async () => {
    let confirmed = false;
    mockAdminApi(
      {},
      {
        graphql: {
          OAuthClients: () => ({ oauthClients: [] }),
          CreateOAuthClient: () =>
            confirmed
              ? { createOAuthClient: { __typename: 'OAuthClientSecretPayload', client: typed({ ...partner, clientId: 'new-app', name: 'Mentor Hub' }), clientSecret: 's3cret-once' } }
              : { errors: [{ message: "Please confirm it's you to make this change", extensions: { code: 'REAUTHENTICATION_REQUIRED' } }] },
          Reauthenticate: reauthenticates(() => {
            confirmed = true;
          }),
        },
      },
    );
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Register an application' });
    await events.type(within(form).getByRole('textbox', { name: /Name/ }), 'Mentor Hub');
    await events.type(within(form).getByRole('textbox', { name: /Redirect URIs/ }), 'https://mentor.example/cb');
    await events.click(within(form).getByRole('button', { name: 'Create application' }));
    const confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    // What was typed waits behind the dialog.
    expect(within(form).getByRole('textbox', { name: /Name/ })).toHaveValue('Mentor Hub');
    await events.type(within(confirm).getByLabelText('Password'), 'adminPass42');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByRole('dialog', { name: 'Mentor Hub is registered' });
    expect(within(shown).getByText('s3cret-once')).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Register an application', hidden: true })).getByRole('textbox', { name: /Name/, hidden: true })).toHaveValue('');
  });

  it('rotates a secret after asking, and deletes an application after asking', async () => {
    clientsServer([partner]);
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Rotate secret of Partner App' }));
    const ask = screen.getByRole('alertdialog', { name: 'Give Partner App a new secret?' });
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.click(within(ask).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New secret for Partner App' });
    expect(within(shown).getByText('n3w-s3cret')).toBeInTheDocument();
    await events.keyboard('{Escape}');
    expect(screen.queryByText('n3w-s3cret')).not.toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Delete Partner App' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Delete Partner App?' })).getByRole('button', { name: 'Delete application' }));
    expect(await screen.findByText('Application deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No application is registered yet.')).toBeInTheDocument());
  });
});
