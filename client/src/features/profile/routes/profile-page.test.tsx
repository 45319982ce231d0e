import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState, SESSION_STALE_TIME_MS } from '@/lib/session-store';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { ProfileUser } from '../api/profile-user';
import { sampleUser } from '../testing/sample-user';
import { ProfilePage } from './profile-page';

type GraphQLBody = { operationName?: string; query: string; variables?: Record<string, unknown> };

const withTypenames = (user: ProfileUser) => ({
  __typename: 'User',
  ...user,
  social: { __typename: 'Social', ...user.social },
  address: { __typename: 'Address', ...user.address },
  preferences: { __typename: 'Preferences', theme: user.preferences.theme, notifications: { __typename: 'Notifications', ...user.preferences.notifications } },
});

/** A fake server: /auth/verify signs in, and GraphQL answers Me, UpdateProfile and DeleteUser. */
function mockServer({
  signedIn = true,
  meError,
  theme = sampleUser.preferences.theme,
  staleSignIn = false,
}: { signedIn?: boolean; meError?: string; theme?: string; staleSignIn?: boolean } = {}) {
  let user = { ...sampleUser, preferences: { ...sampleUser.preferences, theme } };
  let confirmed = !staleSignIn;
  const operations: GraphQLBody[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    if (url.endsWith('/auth/verify')) {
      return signedIn
        ? jsonResponse(200, { success: true, data: { user: { id: user.id, name: user.name, email: user.email, role: user.role } } })
        : jsonResponse(401, { success: false, message: 'Session expired or unauthorized' });
    }
    const body = JSON.parse(String(init?.body)) as GraphQLBody;
    operations.push(body);
    if (body.operationName === 'Me') {
      if (meError) return jsonResponse(200, { data: null, errors: [{ message: 'Not signed in', extensions: { code: meError } }] });
      return jsonResponse(200, { data: { me: withTypenames(user) } });
    }
    if (body.operationName === 'UpdateProfile') {
      const input = body.variables?.input as { website?: string | null; preferences?: { theme?: string } };
      if (input.website === 'https://bad.example') {
        return jsonResponse(200, { data: null, errors: [{ message: 'Website must be a valid http(s) URL', extensions: { code: 'BAD_USER_INPUT', errors: { website: 'Website must be a valid http(s) URL' } } }] });
      }
      user = { ...user, website: input.website ?? null, name: 'Asha R.', preferences: { ...user.preferences, theme: input.preferences?.theme ?? user.preferences.theme } };
      return jsonResponse(200, { data: { updateProfile: { __typename: 'UserPayload', message: 'Profile updated', user: withTypenames(user) } } });
    }
    if (body.operationName === 'Reauthenticate') {
      const input = body.variables?.input as { password?: string };
      if (input.password !== 'quietRiver42') {
        return jsonResponse(200, { data: null, errors: [{ message: 'Password is incorrect', extensions: { code: 'BAD_USER_INPUT', errors: { password: 'Password is incorrect' } } }] });
      }
      confirmed = true;
      return jsonResponse(200, { data: { reauthenticate: { __typename: 'MessagePayload', message: "Thanks, it's you" } } });
    }
    if (!confirmed) {
      return jsonResponse(200, { data: null, errors: [{ message: "Please confirm it's you to make this change", extensions: { code: 'REAUTHENTICATION_REQUIRED' } }] });
    }
    return jsonResponse(200, { data: { deleteUser: { __typename: 'MessagePayload', message: 'Account deleted' } } });
  });
  vi.stubGlobal('fetch', fetchMock);
  /** Changes the name the server answers with, as an edit on another device would. */
  const rename = (name: string) => {
    user = { ...user, name };
  };
  return { operations, fetchMock, rename };
}

const routes = [{ path: '/', element: <h1>Home route</h1> }];

const sessionUser = () => {
  const { session } = getSessionState();
  return session?.status === 'authenticated' ? session.user : undefined;
};
const sessionTheme = () => sessionUser()?.preferences?.theme;

describe('ProfilePage', () => {
  it('shows Loading profile... and then the sections', async () => {
    window.localStorage.setItem('token', 'jwt-1');
    const server = mockServer();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    expect(screen.getByText('Loading profile...')).toBeInTheDocument();
    expect((await screen.findAllByText('Asha Rao')).length).toBeGreaterThan(0);
    for (const title of ['Personal Information', 'Social Profiles', 'Address', 'Preferences', 'Security']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText('Career')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage Security' })).toHaveAttribute('href', '/security');
    const graphQLCall = server.fetchMock.mock.calls.find(([url]) => String(url) === '/api/graphql');
    expect(graphQLCall?.[1]?.credentials).toBe('include');
    expect(new Headers(graphQLCall?.[1]?.headers).get('authorization')).toBe('Bearer jwt-1');
  });

  it('keeps the profile for ten minutes, then fetches it again on focus or reconnect', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = mockServer();
    const profileFetches = () => server.operations.filter((op) => op.operationName === 'Me').length;
    const first = renderWithApp(<ProfilePage />, { route: '/profile', routes });
    expect((await screen.findAllByText('Asha Rao')).length).toBeGreaterThan(0);
    expect(profileFetches()).toBe(1);
    server.rename('Asha Menon');

    // Shown again within the ten minutes: from the cache, as it was.
    first.unmount();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    expect((await screen.findAllByText('Asha Rao')).length).toBeGreaterThan(0);
    vi.setSystemTime(Date.now() + SESSION_STALE_TIME_MS - 1_000);
    act(() => void window.dispatchEvent(new Event('focus')));
    expect(profileFetches()).toBe(1);
    expect(screen.queryByText('Asha Menon')).toBeNull();

    vi.setSystemTime(Date.now() + 2_000);
    act(() => void window.dispatchEvent(new Event('online')));
    expect((await screen.findAllByText('Asha Menon')).length).toBeGreaterThan(0);
    expect(profileFetches()).toBe(2);
  });

  it('asks a signed-out visitor to sign in, without asking for the profile', async () => {
    const server = mockServer({ signedIn: false });
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    expect(await screen.findByText('Please sign in to view your profile.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login?redirect=%2Fprofile');
    expect(server.operations).toHaveLength(0);
  });

  it('treats an UNAUTHENTICATED answer as signed out', async () => {
    mockServer({ meError: 'UNAUTHENTICATED' });
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    expect(await screen.findByText('Please sign in to view your profile.')).toBeInTheDocument();
  });

  it('edits and saves the profile, showing server field errors on their fields', async () => {
    const server = mockServer();
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await events.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const form = screen.getByRole('form', { name: 'Edit profile' });
    expect(within(form).getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    const website = within(form).getByRole('textbox', { name: 'Website' });
    await events.clear(website);
    await events.type(website, 'https://bad.example');
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Website must be a valid http(s) URL')).toBeInTheDocument();
    await events.type(website, '/x');
    expect(within(form).queryByText('Website must be a valid http(s) URL')).not.toBeInTheDocument();
    await events.clear(website);
    await events.type(website, 'https://asha.dev');
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(await screen.findByText('https://asha.dev')).toBeInTheDocument();
    expect(screen.getAllByText('Asha R.').length).toBeGreaterThan(0);
    const update = server.operations.filter((operation) => operation.operationName === 'UpdateProfile').at(-1);
    expect(update?.variables?.input).toMatchObject({ website: 'https://asha.dev', preferences: { notifications: { email: true, sms: false, push: true }, theme: 'dark' } });
    expect(sessionUser()?.name).toBe('Asha R.');
  });

  it('moves focus to the first invalid field when the check before saving fails', async () => {
    const server = mockServer();
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await events.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const form = screen.getByRole('form', { name: 'Edit profile' });
    const website = within(form).getByRole('textbox', { name: 'Website' });
    await events.clear(website);
    await events.type(website, 'not a web address');
    await events.clear(within(form).getByRole('textbox', { name: 'Phone' }));
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    // Phone comes before Website in the form: it is the first to fix.
    const phone = within(form).getByRole('textbox', { name: 'Phone' });
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAccessibleDescription('Phone number is required');
    expect(server.operations.filter((operation) => operation.operationName === 'UpdateProfile')).toHaveLength(0);
  });

  it("hands the loaded profile to the session, so the site takes the user's theme", async () => {
    mockServer({ theme: 'light' });
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await screen.findByRole('heading', { name: 'Preferences' });
    expect(screen.getByText('Light')).toBeInTheDocument();
    await waitFor(() => expect(sessionTheme()).toBe('light'));
  });

  it('puts a saved theme in the session at once, so the whole site switches on save', async () => {
    mockServer();
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await events.click(await screen.findByRole('button', { name: 'Edit profile' }));
    await waitFor(() => expect(sessionTheme()).toBe('dark'));
    await events.click(screen.getByRole('radio', { name: 'Light' }));
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(sessionTheme()).toBe('light');
  });

  it('deletes the account after confirmation, forgets the token and goes home', async () => {
    window.localStorage.setItem('token', 'jwt-1');
    const server = mockServer();
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await events.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByRole('heading', { name: 'Home route' })).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('token')).toBeNull());
    expect(server.operations.at(-1)?.variables).toEqual({ id: 'u1' });
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
  });

  it('keeps focus in the delete dialog while deleting, and gives it back to its button on Cancel', async () => {
    const server = mockServer();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = server.fetchMock.getMockImplementation()!;
    server.fetchMock.mockImplementation(async (input, init) => {
      if (String(init?.body).includes('"operationName":"DeleteUser"')) await held;
      return answer(input, init);
    });
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    const opener = await screen.findByRole('button', { name: 'Delete account' });
    await events.click(opener);
    await events.click(within(screen.getByRole('alertdialog', { name: 'Delete your account?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await events.click(opener);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    await events.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    // Every control waits: Tab still stays in the dialog.
    await events.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(opener).not.toHaveFocus();
    release();
    expect(await screen.findByRole('heading', { name: 'Home route' })).toBeInTheDocument();
  });

  it('asks "Confirm it\'s you" when the sign-in is old, then deletes with the confirmed session', async () => {
    window.localStorage.setItem('token', 'jwt-1');
    const server = mockServer({ staleSignIn: true });
    const events = userEvent.setup();
    renderWithApp(<ProfilePage />, { route: '/profile', routes });
    await events.click(await screen.findByRole('button', { name: 'Delete account' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Delete your account?' })).getByRole('button', { name: 'Delete account' }));
    let confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(window.localStorage.getItem('token')).toBe('jwt-1');
    await waitFor(() => expect(within(confirm).getByLabelText('Password')).toHaveFocus());
    await events.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    // Focus goes back to the page's button, not to the top of the page.
    expect(screen.getByRole('button', { name: 'Delete account' })).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Delete account' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Delete your account?' })).getByRole('button', { name: 'Delete account' }));
    confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(within(confirm).getByText('Password is required')).toBeInTheDocument();
    await events.type(within(confirm).getByLabelText('Password'), 'wrong-one');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(confirm).findByText('Password is incorrect')).toBeInTheDocument();
    await events.clear(within(confirm).getByLabelText('Password'));
    await events.type(within(confirm).getByLabelText('Password'), 'quietRiver42');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Home route' })).toBeInTheDocument();
    const names = server.operations.map((operation) => operation.operationName);
    // Refused twice (the first ask was cancelled), then run again once confirmed.
    expect(names.filter((name) => name === 'DeleteUser')).toHaveLength(3);
    expect(names.at(-1)).toBe('DeleteUser');
  });
});
