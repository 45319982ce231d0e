import { ApolloProvider } from '@apollo/client/react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { mockApi } from '@/test/mock-api';
import { renderWithApp, testConfig } from '@/test/render';
import { ConnectedAccountsSection } from './connected-accounts-section';

const MAIN = 'https://main.example.test';
const github = { provider: 'github', email: 'octo@example.com', linkedAt: '2026-03-02T10:00:00Z' };
const google = { provider: 'google', email: 'asha@gmail.com', linkedAt: '2026-01-05T10:00:00Z' };
const listed = (items: unknown[]) => ({ status: 200, body: { success: true, data: { items } } });

function setup(config: Record<string, string> = { VITE_SIGN_IN_PROVIDERS: 'linkedin,github', VITE_GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' }) {
  const open = vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
  renderWithApp(<ConnectedAccountsSection />, { route: '/security', config: testConfig(config) });
  return { open, events: userEvent.setup() };
}

const row = async (name: string) => {
  const rows = await screen.findAllByTestId('identity');
  const found = rows.find((item) => within(item).queryByText(name, { exact: true }));
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

const methodsOf = (api: ReturnType<typeof mockApi>, path: string) =>
  api.fetchMock.mock.calls.filter(([input]) => String(input) === `/api${path}`).map(([, init]) => init?.method ?? 'GET');

const post = (data: unknown, origin = MAIN) => act(() => void window.dispatchEvent(new MessageEvent('message', { origin, data })));

describe('ConnectedAccountsSection', () => {
  it('lists Google and each offered provider, connected with its email and date, or not', async () => {
    mockApi({ '/users/identities': listed([github, google]) });
    setup();
    expect(screen.getByRole('heading', { name: 'Connected accounts' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('identity');
    expect(rows.map((item) => item.querySelector('p')?.textContent)).toEqual(['Google', 'LinkedIn', 'GitHub']);

    const gh = await row('GitHub');
    expect(gh).toHaveTextContent('octo@example.com');
    expect(gh).toHaveTextContent(`Connected ${new Date(github.linkedAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}`);
    expect(within(gh).getByRole('button', { name: 'Disconnect GitHub' })).toBeInTheDocument();

    const li = await row('LinkedIn');
    expect(li).toHaveTextContent('Not connected');
    expect(within(li).getByRole('button', { name: 'Connect LinkedIn' })).toBeInTheDocument();

    // Google keeps its own flow, which has no "connect": only its state and Disconnect.
    const g = await row('Google');
    expect(g).toHaveTextContent('asha@gmail.com');
    expect(within(g).getByRole('button', { name: 'Disconnect Google' })).toBeInTheDocument();
    expect(within(g).queryByRole('button', { name: /^Connect/ })).not.toBeInTheDocument();
  });

  it('shows an unconnected Google without any button', async () => {
    mockApi({ '/users/identities': listed([]) });
    setup({ VITE_SIGN_IN_PROVIDERS: 'github', VITE_GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' });
    const g = await row('Google');
    expect(g).toHaveTextContent('Not connected');
    expect(within(g).queryByRole('button')).not.toBeInTheDocument();
  });

  it('leaves out a provider that is neither configured nor connected', async () => {
    mockApi({ '/users/identities': listed([]) });
    setup({ VITE_SIGN_IN_PROVIDERS: 'github' });
    const rows = await screen.findAllByTestId('identity');
    expect(rows.map((item) => item.querySelector('p')?.textContent)).toEqual(['GitHub']);
  });

  it('connects a provider: its popup with intent=link, the ticket to oauth/link, the toast, and the list read again', async () => {
    const api = mockApi({
      '/users/identities': [listed([]), listed([{ provider: 'linkedin', email: 'asha@example.com', linkedAt: '2026-03-03T10:00:00Z' }])],
      '/auth/oauth/link': { status: 200, body: { success: true, message: 'LinkedIn account connected' } },
    });
    const { open, events } = setup({ VITE_SIGN_IN_PROVIDERS: 'linkedin,github' });
    await events.click(within(await row('LinkedIn')).getByRole('button', { name: 'Connect LinkedIn' }));
    expect(open).toHaveBeenCalledWith('/api/auth/linkedin/start?intent=link', 'linkedin-signin', 'width=500,height=600');
    expect(within(await row('GitHub')).getByRole('button', { name: 'Connect GitHub' })).toBeDisabled();
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'forged' }, 'https://evil.example');
    post({ type: 'oauth-result', provider: 'github', ticket: 'wrong-popup' });
    post({ type: 'oauth-result', provider: 'linkedin', ticket: 'link-ticket' });
    expect(await screen.findByText('LinkedIn account connected')).toBeInTheDocument();
    expect(api.calls('/auth/oauth/link')).toEqual([{ ticket: 'link-ticket' }]);
    await waitFor(async () => expect(await row('LinkedIn')).toHaveTextContent('asha@example.com'));
    expect(within(await row('LinkedIn')).getByRole('button', { name: 'Disconnect LinkedIn' })).toBeInTheDocument();
    expect(methodsOf(api, '/users/identities')).toEqual(['GET', 'GET']);
  });

  it("asks the person to confirm it's you when the sign-in is old, then connects with the same ticket", async () => {
    const api = mockApi({
      '/users/identities': [listed([]), listed([github])],
      '/auth/oauth/link': [
        { status: 403, body: { success: false, code: 'REAUTHENTICATION_REQUIRED', message: "Please confirm it's you to make this change" } },
        { status: 200, body: { success: true, message: 'GitHub account connected' } },
      ],
      '/graphql': { status: 200, body: { data: { reauthenticate: { __typename: 'MessagePayload', message: "Thanks, it's you" } } } },
    });
    vi.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    function WithApollo() {
      return (
        <ApolloProvider client={useSharedApolloClient()}>
          <ConnectedAccountsSection />
        </ApolloProvider>
      );
    }
    renderWithApp(<WithApollo />, { route: '/security', config: testConfig({ VITE_SIGN_IN_PROVIDERS: 'github' }) });
    const events = userEvent.setup();
    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Connect GitHub' }));
    post({ type: 'oauth-result', provider: 'github', ticket: 'kept-ticket' });

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await events.type(within(dialog).getByLabelText('Password'), 'quietRiver42');
    await events.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('GitHub account connected')).toBeInTheDocument();
    // One popup, its ticket sent again after the confirmation.
    expect(window.open).toHaveBeenCalledTimes(1);
    expect(api.calls('/auth/oauth/link')).toEqual([{ ticket: 'kept-ticket' }, { ticket: 'kept-ticket' }]);
    await waitFor(async () => expect(await row('GitHub')).toHaveTextContent('octo@example.com'));
  });

  it("shows the server's message when the provider account belongs to someone else, and a failed popup's", async () => {
    const taken = 'This GitHub account is already connected to another account';
    const api = mockApi({
      '/users/identities': listed([]),
      '/auth/oauth/link': { status: 409, body: { success: false, code: 'CONFLICT', message: taken } },
    });
    const { events } = setup({ VITE_SIGN_IN_PROVIDERS: 'github' });
    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Connect GitHub' }));
    post({ type: 'oauth-result', provider: 'github', ticket: 't' });
    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(await row('GitHub')).toHaveTextContent('Not connected');

    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Connect GitHub' }));
    post({ type: 'oauth-error', provider: 'github', code: 'state-mismatch' });
    expect(await screen.findByText('GitHub sign-in failed. Please try again.')).toBeInTheDocument();
    expect(api.calls('/auth/oauth/link')).toHaveLength(1);
  });

  it('disconnects only after the confirmation, with the toast, and the row goes back to Not connected', async () => {
    const api = mockApi({
      '/users/identities': listed([github]),
      '/users/identities/github': { status: 200, body: { success: true, message: 'GitHub account disconnected' } },
    });
    const { events } = setup({ VITE_SIGN_IN_PROVIDERS: 'github' });
    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Disconnect GitHub' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Disconnect GitHub?' });
    expect(dialog).toHaveTextContent('octo@example.com');
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('/users/identities/github')).toHaveLength(0);

    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Disconnect GitHub' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('GitHub account disconnected')).toBeInTheDocument();
    expect(methodsOf(api, '/users/identities/github')).toEqual(['DELETE']);
    expect(await row('GitHub')).toHaveTextContent('Not connected');
    expect(within(await row('GitHub')).getByRole('button', { name: 'Connect GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it("refuses to disconnect the last way in with the server's message, and keeps the account connected", async () => {
    const last = 'Add a password or another sign-in method first';
    mockApi({
      '/users/identities': listed([github]),
      '/users/identities/github': { status: 409, body: { success: false, code: 'CONFLICT', message: last } },
    });
    const { events } = setup({ VITE_SIGN_IN_PROVIDERS: 'github' });
    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Disconnect GitHub' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText(last)).toBeInTheDocument();
    expect(await row('GitHub')).toHaveTextContent('octo@example.com');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('an account disconnected elsewhere: the 404 message, and the list is read again', async () => {
    const api = mockApi({
      '/users/identities': [listed([github]), listed([])],
      '/users/identities/github': { status: 404, body: { success: false, code: 'NOT_FOUND', message: 'No GitHub account is connected' } },
    });
    const { events } = setup({ VITE_SIGN_IN_PROVIDERS: 'github' });
    await events.click(within(await row('GitHub')).getByRole('button', { name: 'Disconnect GitHub' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('No GitHub account is connected')).toBeInTheDocument();
    await waitFor(() => expect(methodsOf(api, '/users/identities')).toEqual(['GET', 'GET']));
  });

  it("shows the server's message when the list cannot be read", async () => {
    mockApi({ '/users/identities': { status: 500, body: { success: false, message: 'Something went wrong' } } });
    setup();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
  });
});
