import { gql, type ApolloClient } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { markSignedIn } from '@/lib/session';
import { getSessionState } from '@/lib/session-store';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { ConfirmIdentityDialog } from './confirm-identity-dialog';

/** The GraphQL client the page on screen uses, as the dialog's host saw it last. */
let shownClient: ApolloClient | undefined;

/** A page with the button that asks for the change, and the dialog it opens. */
function Page({ twoFactorEnabled = false }: { twoFactorEnabled?: boolean }) {
  const client = useSharedApolloClient();
  shownClient = client;
  const [open, setOpen] = useState(false);
  return (
    <ApolloProvider client={client}>
      <button type="button" onClick={() => setOpen(true)}>
        Turn off two-factor
      </button>
      <a href="/elsewhere">Elsewhere</a>
      <ConfirmIdentityDialog open={open} twoFactorEnabled={twoFactorEnabled} onCancel={() => setOpen(false)} onConfirmed={() => setOpen(false)} />
    </ApolloProvider>
  );
}

function LoginRoute() {
  const { search } = useLocation();
  return <h1 data-redirect={new URLSearchParams(search).get('redirect') ?? ''}>Login route</h1>;
}

function setup(route = '/security', twoFactorEnabled = false) {
  renderWithApp(<Page twoFactorEnabled={twoFactorEnabled} />, { route, routes: [{ path: '/login', element: <LoginRoute /> }] });
  return userEvent.setup();
}

const reauthenticateFails = (errors: Record<string, string>) => ({
  status: 200,
  body: { data: null, errors: [{ message: Object.values(errors)[0], extensions: { code: 'BAD_USER_INPUT', errors } }] },
});

describe('ConfirmIdentityDialog', () => {
  it('lets an account without a password sign in again: signs out as Logout does and comes back to this page', async () => {
    window.localStorage.setItem('token', 'jwt-1');
    markSignedIn({ id: 'u1', name: 'Asha Rao', email: 'asha@example.com', role: 'career' });
    const api = mockApi({ '/auth/logout': { status: 200, body: { success: true, message: 'Logged out successfully' } } });
    const events = setup('/security?tab=sessions');
    await events.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    const dialog = screen.getByRole('dialog', { name: "Confirm it's you" });
    expect(within(dialog).getByText('No password? Sign in again to continue.')).toBeInTheDocument();
    const cache = shownClient!.cache;
    cache.writeQuery({ query: gql`query Probe { probe }`, data: { probe: 'of the old account' } });

    await events.click(within(dialog).getByRole('button', { name: 'Sign in again' }));
    const login = await screen.findByRole('heading', { name: 'Login route' });
    expect(login).toHaveAttribute('data-redirect', '/security?tab=sessions');
    expect(api.fetchMock.mock.calls.filter(([input, init]) => String(input) === '/api/auth/logout' && init?.method === 'POST')).toHaveLength(1);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(getSessionState().session?.status).toBe('unauthenticated');
    // The old account's GraphQL cache is emptied, as on Logout.
    await waitFor(() => expect(cache.extract()).toEqual({}));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
  });

  it('stays open when signing out fails, saying why', async () => {
    markSignedIn({ id: 'u1', name: 'Asha Rao' });
    mockApi({ '/auth/logout': { status: 500, body: { success: false, message: 'Server unavailable' } } });
    const events = setup();
    await events.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    await events.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(await screen.findByText('Logout failed: Server unavailable')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: "Confirm it's you" })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Login route' })).not.toBeInTheDocument();
  });

  it("shows the server's error under the Password field, also when it comes under `code`", async () => {
    const message = 'Enter your password or a code from your authenticator app';
    mockApi({ '/graphql': reauthenticateFails({ code: message }) });
    const events = setup();
    await events.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    const dialog = screen.getByRole('dialog', { name: "Confirm it's you" });
    const password = within(dialog).getByLabelText('Password');
    await events.type(password, 'not-mine');
    await events.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(message));
    expect(password).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps Tab inside, and gives focus back to the button that opened it', async () => {
    mockApi({});
    const events = setup();
    const opener = screen.getByRole('button', { name: 'Turn off two-factor' });
    await events.click(opener);
    const dialog = screen.getByRole('dialog', { name: "Confirm it's you" });
    const password = within(dialog).getByLabelText('Password');
    expect(password).toHaveFocus();
    await events.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.tab();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await events.tab();
    expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toHaveFocus();
    await events.tab();
    expect(password).toHaveFocus();
    await events.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toHaveFocus();

    await events.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('moves focus to the code field when switching to an authenticator code', async () => {
    mockApi({});
    const events = setup('/security', true);
    await events.click(screen.getByRole('button', { name: 'Turn off two-factor' }));
    await events.click(screen.getByRole('button', { name: 'Use an authenticator code instead' }));
    expect(screen.getByLabelText('Authentication code')).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Use your password instead' }));
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });
});
