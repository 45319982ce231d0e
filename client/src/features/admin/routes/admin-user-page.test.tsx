import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { ApolloFrame } from '../testing/apollo-frame';
import { adminUser, auditEvent, fail, mockAdminApi, ok, reauthenticates, userDetails } from '../testing/mock-admin-api';
import { AdminUserPage } from './admin-user-page';

const render = (id = 'u1') =>
  renderWithApp(<p>Elsewhere</p>, {
    route: `/admin/users/${id}`,
    routes: [
      { path: '/admin/users/:id', element: <ApolloFrame><AdminUserPage /></ApolloFrame> },
      { path: '/admin/users', element: <h1>Users route</h1> },
    ],
  });

const section = (name: string) => screen.getByRole('region', { name });

describe('AdminUserPage', () => {
  it('shows the profile, sessions, organizations, providers, passkeys and audit trail', async () => {
    mockAdminApi({ 'GET /admin/users/u1': ok(userDetails()) });
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Mina Member' })).toBeInTheDocument();
    expect(section('Profile')).toHaveTextContent('mina@example.com');
    expect(within(section('Sessions')).getByRole('button', { name: 'Sign out Firefox on Linux' })).toBeInTheDocument();
    expect(within(section('Organizations')).getByRole('link', { name: 'Acme Hiring' })).toHaveAttribute('href', '/organizations/o1');
    expect(section('Connected providers')).toHaveTextContent('GitHub');
    expect(section('Passkeys')).toHaveTextContent('Laptop');
    expect(within(section('Audit trail')).getByRole('table', { name: 'Audit trail of Mina Member' })).toHaveTextContent('sign_in');
    expect(within(section('Audit trail')).getByRole('link', { name: 'Open in the audit log' })).toHaveAttribute('href', '/admin/audit?userId=u1');
    // Verified already: nothing to resend.
    expect(screen.queryByRole('button', { name: 'Resend verification' })).not.toBeInTheDocument();
  });

  it('says so for an unknown account', async () => {
    mockAdminApi({ 'GET /admin/users/nope': fail(404, 'User not found', 'NOT_FOUND') });
    render('nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeInTheDocument();
  });

  it('suspends with a reason, toasts the server’s message and shows Restore in the same place', async () => {
    let suspended = false;
    const api = mockAdminApi({
      'GET /admin/users/u1': () => ok(userDetails({ user: adminUser({ status: suspended ? 'suspended' : 'active' }), sessions: suspended ? [] : userDetails().sessions })),
      'POST /admin/users/u1/suspend': () => {
        suspended = true;
        return ok(null, 'Account suspended');
      },
      'POST /admin/users/u1/restore': () => {
        suspended = false;
        return ok(null, 'Account restored');
      },
    });
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend Mina Member?' });
    await events.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Sending spam');
    await events.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    expect(await screen.findByText('Account suspended')).toBeInTheDocument();
    expect(api.callsTo('POST', '/admin/users/u1/suspend')[0]?.body).toEqual({ reason: 'Sending spam' });
    const restore = await screen.findByRole('button', { name: 'Restore' });
    expect(restore).toHaveFocus();
    expect(section('Sessions')).toHaveTextContent('No signed-in sessions.');
    await events.click(restore);
    expect(await screen.findByText('Account restored')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeInTheDocument();
  });

  it('keeps the suspend dialog open with the server’s field error, until the reason is edited', async () => {
    mockAdminApi({
      'GET /admin/users/u1': ok(userDetails()),
      'POST /admin/users/u1/suspend': fail(400, 'Reason is too long', 'VALIDATION_ERROR', { reason: 'Reason is too long' }),
    });
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog');
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    await events.type(reason, 'x');
    await events.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    await waitFor(() => expect(reason).toHaveAccessibleDescription('Reason is too long'));
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    await events.type(reason, 'y');
    expect(within(dialog).queryByText('Reason is too long')).not.toBeInTheDocument();
    expect(reason).not.toHaveAttribute('aria-invalid');
  });

  it('asks a stale sign-in to confirm it is the admin before a role change or a suspension, then makes it', async () => {
    let confirmed = false;
    const stale = () => fail(403, "Please confirm it's you to make this change", 'REAUTHENTICATION_REQUIRED');
    const api = mockAdminApi(
      {
        'GET /admin/users/u1': ok(userDetails()),
        'PUT /admin/users/u1/role': (body) => (confirmed ? ok({ user: adminUser({ role: (body as { role: 'hire' }).role }) }, 'Role updated') : stale()),
        'POST /admin/users/u1/suspend': () => (confirmed ? ok(null, 'Account suspended') : stale()),
      },
      {
        graphql: {
          Reauthenticate: reauthenticates(() => {
            confirmed = true;
          }),
        },
      },
    );
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Change role' });
    await events.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'hire');
    await events.click(within(form).getByRole('button', { name: 'Save role' }));
    const confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    // No refusal is shown as the role's error: the dialog is the answer.
    expect(within(form).queryByText(/confirm it's you/i)).not.toBeInTheDocument();
    await events.type(within(confirm).getByLabelText('Password'), 'adminPass42');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Role updated')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/admin/users/u1/role').map((call) => call.body)).toEqual([{ role: 'hire' }, { role: 'hire' }]);

    // Ten minutes on, the sign-in is stale again: a suspension asks too, and keeps its reason.
    confirmed = false;
    await events.click(await screen.findByRole('button', { name: 'Suspend' }));
    await events.type(within(screen.getByRole('dialog', { name: 'Suspend Mina Member?' })).getByRole('textbox', { name: /Reason/ }), 'Sending spam');
    await events.click(within(screen.getByRole('dialog', { name: 'Suspend Mina Member?' })).getByRole('button', { name: 'Suspend account' }));
    const again = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await events.type(within(again).getByLabelText('Password'), 'adminPass42');
    await events.click(within(again).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Account suspended')).toBeInTheDocument();
    expect(api.callsTo('POST', '/admin/users/u1/suspend').map((call) => call.body)).toEqual([{ reason: 'Sending spam' }, { reason: 'Sending spam' }]);
  });

  it('shows the server’s word on the role until another role is picked', async () => {
    mockAdminApi({
      'GET /admin/users/u1': ok(userDetails()),
      'PUT /admin/users/u1/role': fail(400, 'That role cannot be given here', 'BAD_USER_INPUT', { role: 'That role cannot be given here' }),
    });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Change role' });
    const role = within(form).getByRole('combobox', { name: 'Role' });
    await events.selectOptions(role, 'admin');
    await events.click(within(form).getByRole('button', { name: 'Save role' }));
    expect(await within(form).findByText('That role cannot be given here')).toBeInTheDocument();
    expect(role).toHaveAccessibleDescription('That role cannot be given here');
    await events.selectOptions(role, 'hire');
    expect(within(form).queryByText('That role cannot be given here')).not.toBeInTheDocument();
    expect(role).not.toHaveAttribute('aria-invalid');
  });

  it('signs one session out, signs out everywhere, resends verification and changes the role', async () => {
    let user = adminUser({ emailVerified: false, status: 'pending' });
    const api = mockAdminApi({
      'GET /admin/users/u1': () => ok(userDetails({ user })),
      'DELETE /admin/users/u1/sessions/s1': ok(null, 'Session signed out'),
      'POST /admin/users/u1/sign-out': ok(null, 'Signed out everywhere'),
      'POST /admin/users/u1/resend-verification': ok(null, 'Verification email sent'),
      'PUT /admin/users/u1/role': (body) => {
        user = { ...user, role: (body as { role: 'hire' }).role };
        return ok({ user }, 'Role updated');
      },
    });
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Sign out Firefox on Linux' }));
    expect(await screen.findByText('Session signed out')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed out everywhere')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Resend verification' }));
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Change role' });
    const save = within(form).getByRole('button', { name: 'Save role' });
    expect(save).toBeDisabled();
    await events.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'hire');
    await events.click(save);
    expect(await screen.findByText('Role updated')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/admin/users/u1/role')[0]?.body).toEqual({ role: 'hire' });
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save role' })).toBeDisabled());
  });

  it('reloads the account after a role change, since the server ended its sessions', async () => {
    let details = userDetails();
    const api = mockAdminApi({
      'GET /admin/users/u1': () => ok(details),
      'PUT /admin/users/u1/role': () => {
        details = userDetails({ user: adminUser({ role: 'hire' }), sessions: [], audit: [auditEvent(), auditEvent({ id: 'e2', kind: 'role_changed' })] });
        return ok({ user: adminUser({ role: 'hire' }) }, 'Role updated');
      },
    });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Change role' });
    expect(within(section('Sessions')).getByRole('button', { name: 'Sign out Firefox on Linux' })).toBeInTheDocument();
    await events.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'hire');
    await events.click(within(form).getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Role updated')).toBeInTheDocument();
    await waitFor(() => expect(within(section('Sessions')).queryByRole('button', { name: 'Sign out Firefox on Linux' })).not.toBeInTheDocument());
    expect(within(section('Audit trail')).getByRole('table')).toHaveTextContent('role_changed');
    expect(api.callsTo('GET', '/admin/users/u1')).toHaveLength(2);
  });

  it('reloads the account when resending verification is refused because the email is verified meanwhile', async () => {
    let details = userDetails({ user: adminUser({ emailVerified: false, status: 'pending' }) });
    mockAdminApi({
      'GET /admin/users/u1': () => ok(details),
      'POST /admin/users/u1/resend-verification': () => {
        details = userDetails();
        return fail(409, 'Email is already verified', 'CONFLICT');
      },
    });
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Resend verification' }));
    expect(await screen.findByText('Email is already verified')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Resend verification' })).not.toBeInTheDocument());
  });

  it('offers no actions on the admin’s own account', async () => {
    mockAdminApi({ 'GET /admin/users/a1': ok(userDetails({ user: adminUser({ id: 'a1', name: 'Ada Admin', role: 'admin' }) })) });
    render('a1');
    expect(await screen.findByText(/This is your own account/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Change role' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes after the email is typed, confirming it is the admin when the server asks', async () => {
    let confirmed = false;
    const api = mockAdminApi(
      {
        'GET /admin/users/u1': ok(userDetails()),
        'DELETE /users/u1': () => (confirmed ? ok(null, 'Account deleted') : fail(403, "Please confirm it's you to make this change", 'REAUTHENTICATION_REQUIRED')),
      },
      {
        graphql: {
          Reauthenticate: reauthenticates(() => {
            confirmed = true;
          }),
        },
      },
    );
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this account?' });
    await events.type(within(dialog).getByLabelText('Email of the account'), 'mina@example.com');
    await events.click(within(dialog).getByRole('button', { name: 'Delete account' }));

    const confirm = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await events.type(within(confirm).getByLabelText('Password'), 'adminPass42');
    await events.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Users route' })).toBeInTheDocument();
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/users/u1')).toHaveLength(2);
    expect(api.operations.map((operation) => operation.operationName)).toEqual(['Reauthenticate']);
  });
});
