import { ApolloProvider } from '@apollo/client/react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { cancelled, fakeCredential, installWebAuthn, registrationJSON } from '@/test/webauthn';
import { PasskeysSection } from './passkeys-section';

const laptop = { id: 'pk1', name: 'Chrome on Linux', createdAt: '2026-03-02T10:00:00Z', lastUsedAt: null };
const phone = { id: 'pk2', name: 'Safari on iOS', createdAt: '2026-02-01T10:00:00Z', lastUsedAt: '2026-03-01T09:00:00Z' };
const listed = (items: unknown[]) => ({ status: 200, body: { success: true, data: { items } } });
const creationOptions = {
  rp: { id: 'localhost', name: 'Talent Suite' },
  user: { id: 'dXNlcg', name: 'asha@example.com', displayName: 'Asha' },
  challenge: 'AQID',
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

function setup() {
  renderWithApp(<PasskeysSection />, { route: '/security' });
  return userEvent.setup();
}

/** The section as the security page shows it, with the GraphQL client "Confirm it's you" uses. */
function SectionWithApollo() {
  return (
    <ApolloProvider client={useSharedApolloClient()}>
      <PasskeysSection />
    </ApolloProvider>
  );
}

const methodsOf = (api: ReturnType<typeof mockApi>, path: string) =>
  api.fetchMock.mock.calls.filter(([input]) => String(input) === `/api${path}`).map(([, init]) => init?.method ?? 'GET');

describe('PasskeysSection', () => {
  it('lists each passkey with when it was added and last used, or "Never used"', async () => {
    mockApi({ '/users/passkeys': listed([laptop, phone]) });
    setup();
    const items = await screen.findAllByTestId('passkey');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Safari on iOS')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/Never used/)).toBeInTheDocument();
    expect(within(items[1]!).getByText(/last used/)).toBeInTheDocument();
    expect(within(items[1]!).queryByText(/Never used/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Passkeys' })).toBeInTheDocument();
  });

  it('says when there are none, and offers no "Add a passkey" where the browser has no WebAuthn', async () => {
    mockApi({ '/users/passkeys': listed([]) });
    setup();
    expect(await screen.findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add a passkey/ })).not.toBeInTheDocument();
  });

  it("shows the server's message when the list cannot be read", async () => {
    mockApi({ '/users/passkeys': { status: 500, body: { success: false, message: 'Something went wrong' } } });
    setup();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
  });

  it('adds a passkey named after the browser and system, and puts it first', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_ON_LINUX);
    const { create } = installWebAuthn();
    create.mockResolvedValue(fakeCredential(registrationJSON));
    const added = { id: 'pk3', name: 'Chrome on Linux', createdAt: '2026-03-03T10:00:00Z', lastUsedAt: null };
    const api = mockApi({
      '/users/passkeys': listed([phone]),
      '/auth/passkeys/register/start': { status: 200, body: { success: true, data: { options: creationOptions } } },
      '/auth/passkeys/register/finish': { status: 201, body: { success: true, message: 'Passkey added', data: { passkey: added } } },
    });
    const events = setup();
    await screen.findByText('Safari on iOS');
    await events.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Passkey added')).toBeInTheDocument();
    expect(api.calls('/auth/passkeys/register/start')).toEqual([{}]);
    expect(api.calls('/auth/passkeys/register/finish')).toEqual([{ name: 'Chrome on Linux', credential: registrationJSON }]);
    // The browser got the options with their byte strings as buffers.
    const publicKey = create.mock.calls[0]![0].publicKey!;
    expect(Array.from(new Uint8Array(publicKey.challenge as ArrayBuffer))).toEqual([1, 2, 3]);
    const names = screen.getAllByTestId('passkey').map((item) => within(item).getByText(/on (Linux|iOS)$/).textContent);
    expect(names).toEqual(['Chrome on Linux', 'Safari on iOS']);
  });

  it("asks the person to confirm it's you when the sign-in is old, then adds the passkey", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_ON_LINUX);
    const { create } = installWebAuthn();
    create.mockResolvedValue(fakeCredential(registrationJSON));
    const added = { id: 'pk3', name: 'Chrome on Linux', createdAt: '2026-03-03T10:00:00Z', lastUsedAt: null };
    const api = mockApi({
      '/users/passkeys': listed([]),
      '/auth/passkeys/register/start': [
        { status: 403, body: { success: false, code: 'REAUTHENTICATION_REQUIRED', message: "Please confirm it's you to make this change" } },
        { status: 200, body: { success: true, data: { options: creationOptions } } },
      ],
      '/auth/passkeys/register/finish': { status: 201, body: { success: true, message: 'Passkey added', data: { passkey: added } } },
      '/graphql': { status: 200, body: { data: { reauthenticate: { __typename: 'MessagePayload', message: "Thanks, it's you" } } } },
    });
    renderWithApp(<SectionWithApollo />, { route: '/security' });
    const events = userEvent.setup();
    await screen.findByText('You have no passkeys yet.');
    await events.click(screen.getByRole('button', { name: 'Add a passkey' }));

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(create).not.toHaveBeenCalled();
    expect(screen.queryByText("Please confirm it's you to make this change")).not.toBeInTheDocument();
    await events.type(within(dialog).getByLabelText('Password'), 'quietRiver42');
    await events.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Passkey added')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls('/graphql')).toMatchObject([{ variables: { input: { password: 'quietRiver42' } } }]);
    expect(api.calls('/auth/passkeys/register/start')).toHaveLength(2);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('says nothing when the person closes the browser prompt', async () => {
    const { create } = installWebAuthn();
    create.mockRejectedValue(cancelled());
    const api = mockApi({
      '/users/passkeys': listed([]),
      '/auth/passkeys/register/start': { status: 200, body: { success: true, data: { options: creationOptions } } },
    });
    const events = setup();
    await screen.findByText('You have no passkeys yet.');
    await events.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeEnabled());
    expect(create).toHaveBeenCalledTimes(1);
    expect(api.calls('/auth/passkeys/register/finish')).toHaveLength(0);
    expect(document.querySelector('.Toastify__toast')).toBeNull();
  });

  it("shows the server's message when the new passkey is refused", async () => {
    const { create } = installWebAuthn();
    create.mockResolvedValue(fakeCredential(registrationJSON));
    mockApi({
      '/users/passkeys': listed([]),
      '/auth/passkeys/register/start': { status: 200, body: { success: true, data: { options: creationOptions } } },
      '/auth/passkeys/register/finish': { status: 410, body: { success: false, code: 'TOKEN_EXPIRED', message: 'Passkey request has expired. Please try again.' } },
    });
    const events = setup();
    await screen.findByText('You have no passkeys yet.');
    await events.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Passkey request has expired. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('You have no passkeys yet.')).toBeInTheDocument();
  });

  it('renames in place: checks the name first, then saves and shows the new one', async () => {
    const api = mockApi({
      '/users/passkeys': listed([laptop]),
      '/users/passkeys/pk1': { status: 200, body: { success: true, message: 'Passkey renamed', data: { passkey: { ...laptop, name: 'Work laptop' } } } },
    });
    const events = setup();
    await events.click(await screen.findByRole('button', { name: 'Rename Chrome on Linux' }));
    const field = screen.getByLabelText(/Passkey name/);
    expect(field).toHaveValue('Chrome on Linux');
    expect(field).toHaveFocus();
    await events.clear(field);
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Passkey name is required')).toBeInTheDocument();
    expect(api.calls('/users/passkeys/pk1')).toHaveLength(0);
    await events.type(field, '  Work laptop ');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey renamed')).toBeInTheDocument();
    expect(api.calls('/users/passkeys/pk1')).toEqual([{ name: 'Work laptop' }]);
    expect(methodsOf(api, '/users/passkeys/pk1')).toEqual(['PUT']);
    expect(screen.getByText('Work laptop')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Passkey name/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rename Work laptop' })).toHaveFocus();
  });

  it("puts the server's field error on the name, and Cancel (or Escape) leaves the name as it was", async () => {
    mockApi({
      '/users/passkeys': listed([laptop]),
      '/users/passkeys/pk1': { status: 400, body: { success: false, message: 'Validation failed', errors: { name: 'Passkey name must be at most 64 characters' } } },
    });
    const events = setup();
    await events.click(await screen.findByRole('button', { name: 'Rename Chrome on Linux' }));
    await events.type(screen.getByLabelText(/Passkey name/), '!');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey name must be at most 64 characters')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Chrome on Linux')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Rename Chrome on Linux' }));
    await events.keyboard('{Escape}');
    expect(screen.queryByLabelText(/Passkey name/)).not.toBeInTheDocument();
  });

  it('removes a passkey only after the confirmation', async () => {
    const api = mockApi({
      '/users/passkeys': listed([laptop, phone]),
      '/users/passkeys/pk2': { status: 200, body: { success: true, message: 'Passkey removed' } },
    });
    const events = setup();
    await events.click(await screen.findByRole('button', { name: 'Remove Safari on iOS' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove Safari on iOS?' });
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('/users/passkeys/pk2')).toHaveLength(0);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await events.click(screen.getByRole('button', { name: 'Remove Safari on iOS' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument();
    expect(methodsOf(api, '/users/passkeys/pk2')).toEqual(['DELETE']);
    expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('passkey')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it("asks the person to confirm it's you before removing a passkey when the sign-in is old", async () => {
    const api = mockApi({
      '/users/passkeys': listed([laptop, phone]),
      '/users/passkeys/pk2': [
        { status: 403, body: { success: false, code: 'REAUTHENTICATION_REQUIRED', message: "Please confirm it's you to make this change" } },
        { status: 200, body: { success: true, message: 'Passkey removed' } },
      ],
      '/graphql': { status: 200, body: { data: { reauthenticate: { __typename: 'MessagePayload', message: "Thanks, it's you" } } } },
    });
    renderWithApp(<SectionWithApollo />, { route: '/security' });
    const events = userEvent.setup();
    await events.click(await screen.findByRole('button', { name: 'Remove Safari on iOS' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove passkey' }));

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(screen.getByText('Safari on iOS')).toBeInTheDocument();
    await events.type(within(dialog).getByLabelText('Password'), 'quietRiver42');
    await events.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Passkey removed')).toBeInTheDocument();
    expect(methodsOf(api, '/users/passkeys/pk2')).toEqual(['DELETE', 'DELETE']);
    expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument();
  });

  it('a passkey gone elsewhere: the 404 message, and the list is read again', async () => {
    const api = mockApi({
      '/users/passkeys': [listed([laptop]), listed([])],
      '/users/passkeys/pk1': { status: 404, body: { success: false, message: 'Passkey not found' } },
    });
    const events = setup();
    await events.click(await screen.findByRole('button', { name: 'Remove Chrome on Linux' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('Passkey not found')).toBeInTheDocument();
    expect(await screen.findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(methodsOf(api, '/users/passkeys')).toEqual(['GET', 'GET']);
  });
});
