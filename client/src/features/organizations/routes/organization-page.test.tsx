import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render';
import type { Organization } from '../api/types';
import { acme, fail, invitation, membership, mockOrgApi, ok } from '../testing/mock-org-api';
import { OrganizationPage } from './organization-page';

const routes = [
  { path: '/login', element: <h1>Login route</h1> },
  { path: '/organizations', element: <h1>Organizations route</h1> },
  { path: '/organizations/:id', element: <OrganizationPage /> },
];
const render = () => renderWithApp(<OrganizationPage />, { route: '/organizations/o1', routes });

const MEMBERS = '/orgs/o1/members?limit=20';
const asha = membership('u1', 'Asha Rao', 'owner');
const ravi = membership('u2', 'Ravi Kumar', 'member');
const meera = membership('u3', 'Meera Iyer', 'admin');

/** The organization seen with `myRole`, its members and (for owners and admins) no pending invitations. */
function server(myRole: Organization['myRole'], extra: Parameters<typeof mockOrgApi>[0] = {}, me = { id: 'u1', name: 'Asha Rao', email: 'asha@example.com', role: 'hire' }) {
  return mockOrgApi(
    {
      'GET /orgs/o1': ok({ organization: { ...acme, myRole } }),
      [`GET ${MEMBERS}`]: ok({ items: [asha, meera, ravi], nextCursor: null }),
      'GET /orgs/o1/invitations': ok({ items: [] }),
      ...extra,
    },
    me,
  );
}

/** Holds back the answers to `paths` ("METHOD /path") until `release(path)`. */
function holdBack(api: ReturnType<typeof mockOrgApi>, paths: string[]) {
  const answer = api.fetchMock.getMockImplementation() as typeof fetch;
  const gates = new Map(
    paths.map((path) => {
      let resolve = () => {};
      const promise = new Promise<void>((done) => (resolve = done));
      return [path, { promise, resolve }];
    }),
  );
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      await gates.get(`${init?.method ?? 'GET'} ${String(input).replace(/^\/api/, '')}`)?.promise;
      return answer(input, init);
    }),
  );
  return { release: (path: string) => gates.get(path)?.resolve() };
}

const row = (name: string) => screen.getAllByTestId('member').find((item) => within(item).queryAllByText(name).length > 0) as HTMLElement;

describe('OrganizationPage', () => {
  it('says so when the organization is not there (or not for this person)', async () => {
    mockOrgApi({ 'GET /orgs/o1': fail(404, 'Organization not found', 'NOT_FOUND') });
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Organization not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← All organizations' })).toHaveAttribute('href', '/organizations');
  });

  it('asks a visitor to sign in and come back', async () => {
    mockOrgApi({}, null);
    render();
    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login?redirect=%2Forganizations%2Fo1');
  });

  it("shows the header and every control to an owner, and changes a member's role", async () => {
    const api = server('owner', { 'PUT /orgs/o1/members/u2': ok(null, 'Member updated') });
    const events = userEvent.setup();
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Hiring' })).toBeInTheDocument();
    expect(screen.getByText('Hire organization')).toBeInTheDocument();
    expect(screen.getByText('Your role: Owner · 3 members')).toBeInTheDocument();
    await screen.findAllByTestId('member');
    for (const heading of ['Members', 'Invite people', 'Pending invitations', 'Organization details', 'Delete organization']) {
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    }
    const select = within(row('Ravi Kumar')).getByRole('combobox', { name: 'Role of Ravi Kumar' });
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Owner', 'Admin', 'Member']);
    expect(within(row('Ravi Kumar')).getByRole('button', { name: 'Remove Ravi Kumar' })).toBeInTheDocument();
    expect(within(row('Asha Rao')).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(within(row('Asha Rao')).getByRole('button', { name: 'Leave organization' })).toBeInTheDocument();

    // Picking a role sends nothing until it is saved.
    await events.selectOptions(select, 'admin');
    expect(api.callsTo('PUT', '/orgs/o1/members/u2')).toHaveLength(0);
    await events.click(within(row('Ravi Kumar')).getByRole('button', { name: 'Save role of Ravi Kumar' }));
    expect(await screen.findByText('Member updated')).toBeInTheDocument();
    expect(select).toHaveFocus();
    expect(api.callsTo('PUT', '/orgs/o1/members/u2')[0]?.body).toEqual({ role: 'admin' });
    expect(select).toHaveValue('admin');
  });

  it("keeps the role and shows the server's words when the change is refused", async () => {
    server('owner', { 'PUT /orgs/o1/members/u1': fail(409, 'An organization needs at least one owner', 'CONFLICT') });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    const select = within(row('Asha Rao')).getByRole('combobox', { name: 'Role of Asha Rao' });
    await events.selectOptions(select, 'member');
    await events.click(within(row('Asha Rao')).getByRole('button', { name: 'Save role of Asha Rao' }));
    expect(await screen.findByText('An organization needs at least one owner')).toBeInTheDocument();
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveValue('owner');
  });

  it('gives an org admin member/admin choices for non-owners only, and no delete', async () => {
    server('admin', {}, { id: 'u3', name: 'Meera Iyer', email: 'meera@example.com', role: 'hire' });
    render();
    await screen.findAllByTestId('member');
    expect(within(row('Asha Rao')).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(row('Asha Rao')).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    const select = within(row('Ravi Kumar')).getByRole('combobox', { name: 'Role of Ravi Kumar' });
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(['Admin', 'Member']);
    expect(within(row('Ravi Kumar')).getByRole('button', { name: 'Remove Ravi Kumar' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Invite people' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delete organization' })).not.toBeInTheDocument();
  });

  it('lets a member read and leave, and then goes back to the list', async () => {
    const api = server('member', { 'DELETE /orgs/o1/members/u2': ok(null, 'Member removed') }, { id: 'u2', name: 'Ravi Kumar', email: 'ravi@example.com', role: 'career' });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invite people' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/orgs/o1/invitations')).toHaveLength(0);

    await events.click(within(row('Ravi Kumar')).getByRole('button', { name: 'Leave organization' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Leave Acme Hiring?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await events.click(within(dialog).getByRole('button', { name: 'Leave organization' }));
    expect(await screen.findByRole('heading', { name: 'Organizations route' })).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/orgs/o1/members/u2')).toHaveLength(1);
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
  });

  it('removes a member after asking, and counts one fewer', async () => {
    server('owner', { 'DELETE /orgs/o1/members/u2': ok(null, 'Member removed') });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    await events.click(within(row('Ravi Kumar')).getByRole('button', { name: 'Remove Ravi Kumar' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Remove Ravi Kumar?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('member')).toHaveLength(2));
    expect(screen.getByText('Your role: Owner · 2 members')).toBeInTheDocument();
  });

  it('loads more members while there is a next cursor', async () => {
    const api = server('owner', {
      [`GET ${MEMBERS}`]: ok({ items: [asha, meera], nextCursor: 'c2' }),
      [`GET ${MEMBERS}&cursor=c2`]: ok({ items: [ravi], nextCursor: null }),
    });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    expect(screen.getAllByTestId('member')).toHaveLength(2);
    await events.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('member')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', `${MEMBERS}&cursor=c2`)).toHaveLength(1);
  });

  it('invites the addresses of a CSV file and says what was sent and what was skipped', async () => {
    let pending = [invitation('i0', 'old@example.com')];
    const api = server('owner', {
      'GET /orgs/o1/invitations': () => ok({ items: pending }),
      'POST /orgs/o1/invitations': () => {
        pending = [...pending, invitation('i1', 'kabir@example.com', 'admin')];
        return ok(
          {
            invitations: [invitation('i1', 'kabir@example.com', 'admin')],
            skipped: [
              { email: 'ravi@example.com', reason: 'member' },
              { email: 'old@example.com', reason: 'invited' },
              { email: 'nope', reason: 'invalid' },
            ],
          },
          'Invitations sent',
          201,
        );
      },
    });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Invite people' });
    await events.click(within(form).getByRole('button', { name: 'Send invitations' }));
    expect(within(form).getByText('Add at least one email address')).toBeInTheDocument();

    await events.type(within(form).getByLabelText('Email addresses'), 'nope');
    const csv = new File(['Name,Email\nKabir,kabir@example.com\nRavi,ravi@example.com\nOld,old@example.com\n'], 'people.csv', { type: 'text/csv' });
    await events.upload(within(form).getByLabelText('Or add addresses from a CSV file'), csv);
    expect(await within(form).findByText('Added 3 addresses from people.csv.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Email addresses')).toHaveValue('nope\nkabir@example.com\nravi@example.com\nold@example.com');
    await events.selectOptions(within(form).getByLabelText('Invite as'), 'admin');
    await events.click(within(form).getByRole('button', { name: 'Send invitations' }));

    const result = await screen.findByTestId('invite-result');
    expect(result).toHaveTextContent('Sent 1 invitation:');
    expect(result).toHaveTextContent('kabir@example.com');
    expect(result).toHaveTextContent('Skipped 3 addresses:');
    expect(result).toHaveTextContent('ravi@example.com: already a member');
    expect(result).toHaveTextContent('old@example.com: already invited');
    expect(result).toHaveTextContent('nope: not a valid email address');
    expect(api.callsTo('POST', '/orgs/o1/invitations')[0]?.body).toEqual({ emails: ['nope', 'kabir@example.com', 'ravi@example.com', 'old@example.com'], role: 'admin' });
    expect(within(form).getByLabelText('Email addresses')).toHaveValue('');
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(2));
    expect(await screen.findByText('Invitations sent')).toBeInTheDocument();
  });

  it('lets owners invite owners too, and org admins only members and admins', async () => {
    server('owner');
    const { unmount } = render();
    let form = await screen.findByRole('form', { name: 'Invite people' });
    const options = (select: HTMLElement) => within(select).getAllByRole('option').map((option) => option.textContent);
    expect(options(within(form).getByLabelText('Invite as'))).toEqual(['Member', 'Admin', 'Owner']);
    unmount();
    server('admin');
    render();
    form = await screen.findByRole('form', { name: 'Invite people' });
    expect(options(within(form).getByLabelText('Invite as'))).toEqual(['Member', 'Admin']);
  });

  it('says when a file has no addresses, and shows a refused send as a toast', async () => {
    server('owner', { 'POST /orgs/o1/invitations': fail(409, 'Seat limit reached', 'CONFLICT') });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Invite people' });
    await events.upload(within(form).getByLabelText('Or add addresses from a CSV file'), new File(['name\nKabir\n'], 'names.csv', { type: 'text/csv' }));
    expect(await within(form).findByText('No email addresses found in names.csv.')).toBeInTheDocument();
    await events.type(within(form).getByLabelText('Email addresses'), 'a@example.com, b@example.com');
    await events.click(within(form).getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('Seat limit reached')).toBeInTheDocument();
    expect(within(form).getByLabelText('Email addresses')).toHaveValue('a@example.com, b@example.com');
  });

  it("shows the server's field errors on the invite form, each until its own field is edited", async () => {
    const emailsError = 'Enter at least one valid email address';
    const roleError = 'Role must be member or admin';
    server('owner', { 'POST /orgs/o1/invitations': fail(400, 'Check the invitation', 'BAD_USER_INPUT', { emails: emailsError, role: roleError }) });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Invite people' });
    const emails = within(form).getByLabelText('Email addresses');
    const role = within(form).getByLabelText('Invite as');
    await events.type(emails, 'nope');
    await events.click(within(form).getByRole('button', { name: 'Send invitations' }));
    expect(await within(form).findByText(emailsError)).toBeInTheDocument();
    expect(within(form).getByText(roleError)).toBeInTheDocument();

    await events.type(emails, '@example.com');
    expect(within(form).queryByText(emailsError)).not.toBeInTheDocument();
    expect(emails).not.toHaveAttribute('aria-invalid');
    expect(within(form).getByText(roleError)).toBeInTheDocument();
    await events.selectOptions(role, 'admin');
    expect(within(form).queryByText(roleError)).not.toBeInTheDocument();
    expect(role).not.toHaveAttribute('aria-invalid');
  });

  it('revokes a pending invitation', async () => {
    const api = server('owner', {
      'GET /orgs/o1/invitations': ok({ items: [invitation('i7', 'tara@example.com')] }),
      'DELETE /orgs/o1/invitations/i7': ok(null, 'Invitation revoked'),
    });
    const events = userEvent.setup();
    render();
    const item = await screen.findByTestId('invitation');
    expect(item).toHaveTextContent('Member · invited by Asha Rao');
    await events.click(within(item).getByRole('button', { name: 'Revoke the invitation for tara@example.com' }));
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    expect(screen.getByText('No invitation is waiting for an answer.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/orgs/o1/invitations/i7')).toHaveLength(1);
  });

  it("reloads the pending invitations after a member's role is lowered, since theirs are revoked", async () => {
    let pending = [invitation('i1', 'tara@example.com'), { ...invitation('i2', 'kabir@example.com'), invitedBy: { id: 'u3', name: 'Meera Iyer' } }];
    const api = server('owner', {
      'GET /orgs/o1/invitations': () => ok({ items: pending }),
      'PUT /orgs/o1/members/u3': () => {
        pending = pending.filter((item) => item.invitedBy.id !== 'u3');
        return ok(null, 'Member updated');
      },
    });
    const events = userEvent.setup();
    render();
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(2));
    await screen.findAllByTestId('member');
    await events.selectOptions(within(row('Meera Iyer')).getByRole('combobox', { name: 'Role of Meera Iyer' }), 'member');
    await events.click(within(row('Meera Iyer')).getByRole('button', { name: 'Save role of Meera Iyer' }));
    expect(await screen.findByText('Member updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(1));
    expect(screen.queryByText('kabir@example.com')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/orgs/o1/invitations')).toHaveLength(2);
  });

  it('reloads the pending invitations after a member is removed, since theirs are revoked', async () => {
    let pending = [{ ...invitation('i2', 'kabir@example.com'), invitedBy: { id: 'u3', name: 'Meera Iyer' } }];
    server('owner', {
      'GET /orgs/o1/invitations': () => ok({ items: pending }),
      'DELETE /orgs/o1/members/u3': () => {
        pending = [];
        return ok(null, 'Member removed');
      },
    });
    const events = userEvent.setup();
    render();
    await screen.findByTestId('invitation');
    await screen.findAllByTestId('member');
    await events.click(within(row('Meera Iyer')).getByRole('button', { name: 'Remove Meera Iyer' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Remove Meera Iyer?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Member removed')).toBeInTheDocument();
    expect(await screen.findByText('No invitation is waiting for an answer.')).toBeInTheDocument();
  });

  it('drops a member the server no longer has when removing them answers 404', async () => {
    server('owner', { 'DELETE /orgs/o1/members/u2': fail(404, 'Member not found', 'NOT_FOUND') });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    await events.click(within(row('Ravi Kumar')).getByRole('button', { name: 'Remove Ravi Kumar' }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Remove Ravi Kumar?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Member not found')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('member')).toHaveLength(2));
    expect(screen.queryByText('Ravi Kumar')).not.toBeInTheDocument();
  });

  it("drops a member the server no longer has when changing their role answers 404", async () => {
    server('owner', { 'PUT /orgs/o1/members/u2': fail(404, 'Member not found', 'NOT_FOUND') });
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    await events.selectOptions(within(row('Ravi Kumar')).getByRole('combobox', { name: 'Role of Ravi Kumar' }), 'admin');
    await events.click(within(row('Ravi Kumar')).getByRole('button', { name: 'Save role of Ravi Kumar' }));
    expect(await screen.findByText('Member not found')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('member')).toHaveLength(2));
    expect(screen.queryByText('Ravi Kumar')).not.toBeInTheDocument();
  });

  it('reloads the pending invitations when a revoke answers 404', async () => {
    let pending = [invitation('i7', 'tara@example.com'), invitation('i8', 'kabir@example.com')];
    const api = server('owner', {
      'GET /orgs/o1/invitations': () => ok({ items: pending }),
      'DELETE /orgs/o1/invitations/i7': () => {
        pending = [invitation('i8', 'kabir@example.com')];
        return fail(404, 'Invitation not found', 'NOT_FOUND');
      },
    });
    const events = userEvent.setup();
    render();
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(2));
    await events.click(screen.getByRole('button', { name: 'Revoke the invitation for tara@example.com' }));
    expect(await screen.findByText('Invitation not found')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(1));
    expect(screen.queryByText('tara@example.com')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/orgs/o1/invitations')).toHaveLength(2);
  });

  it("keeps each member's controls waiting for its own answer while another member's change is on its way", async () => {
    const api = server('owner', { 'PUT /orgs/o1/members/u2': ok(null, 'Member updated'), 'PUT /orgs/o1/members/u3': ok(null, 'Member updated') });
    const held = holdBack(api, ['PUT /orgs/o1/members/u2', 'PUT /orgs/o1/members/u3']);
    const events = userEvent.setup();
    render();
    await screen.findAllByTestId('member');
    const ravi = within(row('Ravi Kumar')).getByRole('combobox', { name: 'Role of Ravi Kumar' });
    const meera = within(row('Meera Iyer')).getByRole('combobox', { name: 'Role of Meera Iyer' });
    const button = (name: string, label: string) => within(row(name)).getByRole('button', { name: label });
    await events.selectOptions(ravi, 'admin');
    await events.click(button('Ravi Kumar', 'Save role of Ravi Kumar'));
    await events.selectOptions(meera, 'member');
    await events.click(button('Meera Iyer', 'Save role of Meera Iyer'));
    expect(button('Ravi Kumar', 'Remove Ravi Kumar')).toBeDisabled();
    expect(button('Meera Iyer', 'Remove Meera Iyer')).toBeDisabled();
    held.release('PUT /orgs/o1/members/u3');
    await waitFor(() => expect(button('Meera Iyer', 'Remove Meera Iyer')).toBeEnabled());
    expect(button('Ravi Kumar', 'Remove Ravi Kumar')).toBeDisabled();
    // Another role picked for Ravi while his change is on its way waits to be saved.
    expect(ravi).toHaveValue('admin');
    await events.selectOptions(ravi, 'owner');
    expect(button('Ravi Kumar', 'Save role of Ravi Kumar')).toBeDisabled();
    held.release('PUT /orgs/o1/members/u2');
    await waitFor(() => expect(button('Ravi Kumar', 'Remove Ravi Kumar')).toBeEnabled());
    expect(button('Ravi Kumar', 'Save role of Ravi Kumar')).toBeEnabled();
    expect(api.callsTo('PUT', '/orgs/o1/members/u2')).toHaveLength(1);
  });

  it("keeps each invitation's Revoke waiting for its own answer, and sends it once", async () => {
    const api = server('owner', {
      'GET /orgs/o1/invitations': ok({ items: [invitation('i7', 'tara@example.com'), invitation('i8', 'kabir@example.com')] }),
      'DELETE /orgs/o1/invitations/i7': ok(null, 'Invitation revoked'),
      'DELETE /orgs/o1/invitations/i8': ok(null, 'Invitation revoked'),
    });
    const held = holdBack(api, ['DELETE /orgs/o1/invitations/i7', 'DELETE /orgs/o1/invitations/i8']);
    const events = userEvent.setup();
    render();
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(2));
    const tara = screen.getByRole('button', { name: 'Revoke the invitation for tara@example.com' });
    const kabir = screen.getByRole('button', { name: 'Revoke the invitation for kabir@example.com' });
    await events.click(tara);
    await events.click(kabir);
    expect(tara).toBeDisabled();
    expect(kabir).toBeDisabled();
    held.release('DELETE /orgs/o1/invitations/i8');
    await waitFor(() => expect(screen.getAllByTestId('invitation')).toHaveLength(1));
    expect(tara).toBeDisabled();
    held.release('DELETE /orgs/o1/invitations/i7');
    expect(await screen.findByText('No invitation is waiting for an answer.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/orgs/o1/invitations/i7')).toHaveLength(1);
  });

  it('renames the organization', async () => {
    const api = server('owner', { 'PUT /orgs/o1': ok({ organization: { ...acme, name: 'Acme Talent', slug: 'acme-talent' } }, 'Organization updated') });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Organization details' });
    await events.clear(within(form).getByLabelText(/Organization name/));
    await events.type(within(form).getByLabelText(/Organization name/), 'Acme Talent');
    await events.clear(within(form).getByLabelText(/Slug/));
    await events.type(within(form).getByLabelText(/Slug/), 'acme-talent');
    await events.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Talent' })).toBeInTheDocument();
    expect(api.callsTo('PUT', '/orgs/o1')[0]?.body).toEqual({ name: 'Acme Talent', slug: 'acme-talent' });
    expect(await screen.findByText('Organization updated')).toBeInTheDocument();
  });

  it('keeps Tab inside the delete dialog, and gives focus back to its button on close', async () => {
    server('owner');
    const events = userEvent.setup();
    render();
    await screen.findByRole('heading', { level: 2, name: 'Delete organization' });
    const opener = screen.getByRole('button', { name: 'Delete organization' });
    await events.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Delete Acme Hiring?' });
    const field = within(dialog).getByLabelText('Organization name');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(field).toHaveFocus();
    await events.tab();
    expect(cancel).toHaveFocus();
    // Delete waits for the name: Tab wraps to the field, Shift+Tab back to Cancel.
    await events.tab();
    expect(field).toHaveFocus();
    await events.tab({ shift: true });
    expect(cancel).toHaveFocus();
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('deletes the organization only once its name is typed exactly', async () => {
    const api = server('owner', { 'DELETE /orgs/o1': ok(null, 'Organization deleted') });
    const events = userEvent.setup();
    render();
    await screen.findByRole('heading', { level: 2, name: 'Delete organization' });
    await events.click(screen.getByRole('button', { name: 'Delete organization' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Acme Hiring?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete organization' });
    expect(confirm).toBeDisabled();
    await events.type(within(dialog).getByLabelText('Organization name'), 'acme hiring');
    expect(confirm).toBeDisabled();
    await events.clear(within(dialog).getByLabelText('Organization name'));
    await events.type(within(dialog).getByLabelText('Organization name'), 'Acme Hiring');
    await events.click(confirm);
    expect(await screen.findByRole('heading', { name: 'Organizations route' })).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/orgs/o1')).toHaveLength(1);
    expect(await screen.findByText('Organization deleted')).toBeInTheDocument();
  });
});
