import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { adminUser, mockAdminApi, ok } from '../testing/mock-admin-api';
import { AdminUsersPage } from './admin-users-page';

const render = (route = '/admin/users') => renderWithApp(<p>Elsewhere</p>, { route, routes: [{ path: '/admin/users', element: <AdminUsersPage /> }] });
const mina = adminUser();
const sam = adminUser({ id: 'u2', name: 'Sam Suspended', email: 'sam@example.com', status: 'suspended', emailVerified: false, twoFactorEnabled: true, lastSignInAt: null, role: 'hire' });

describe('AdminUsersPage', () => {
  it('lists the accounts in a table with every column', async () => {
    mockAdminApi({ 'GET /admin/users?limit=50': ok({ items: [mina, sam], nextCursor: null }) });
    render();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'Email', 'Role', 'Status', 'Verified', 'Two-factor', 'Last sign-in', 'Created']);
    const row = within(table).getAllByTestId('user-row')[1] as HTMLElement;
    expect(within(row).getByRole('rowheader')).toHaveTextContent('Sam Suspended');
    expect(row).toHaveTextContent('sam@example.com');
    expect(row).toHaveTextContent('Hire');
    expect(row).toHaveTextContent('Suspended');
    expect(row).toHaveTextContent('Never');
    expect(screen.getByRole('status')).toHaveTextContent('Showing 2 users.');
  });

  it('searches as you type, once typing pauses, and keeps the search in the address', async () => {
    const api = mockAdminApi({
      'GET /admin/users?limit=50': ok({ items: [mina, sam], nextCursor: null }),
      'GET /admin/users?query=sam&limit=50': ok({ items: [sam], nextCursor: null }),
    });
    const events = userEvent.setup();
    const { router } = render();
    await screen.findByRole('table', { name: 'Users' });
    await events.type(screen.getByRole('searchbox', { name: 'Search users' }), 'sam');
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(1));
    expect(router.state.location.search).toBe('?query=sam');
    // One call for the whole word, none for "s" or "sa".
    expect(api.calls.map((call) => call.path)).toEqual(['/admin/users?limit=50', '/admin/users?query=sam&limit=50']);
  });

  it('filters by role and status, and loads the next page after the last', async () => {
    const api = mockAdminApi({
      'GET /admin/users?limit=50': ok({ items: [mina], nextCursor: null }),
      'GET /admin/users?role=hire&limit=50': ok({ items: [sam], nextCursor: null }),
      'GET /admin/users?role=hire&status=suspended&limit=50': ok({ items: [sam], nextCursor: 'c2' }),
      'GET /admin/users?role=hire&status=suspended&limit=50&cursor=c2': ok({ items: [adminUser({ id: 'u3', name: 'Sia Second' })], nextCursor: null }),
    });
    const events = userEvent.setup();
    render();
    await screen.findByRole('table', { name: 'Users' });
    await events.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'hire');
    await events.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'suspended');
    await events.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('link', { name: 'Sia Second' });
    expect(screen.getAllByTestId('user-row')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/admin/users?role=hire&status=suspended&limit=50&cursor=c2')).toHaveLength(1);
  });

  it('starts from the filters in the address and says when nothing matches', async () => {
    mockAdminApi({ 'GET /admin/users?query=zed&status=pending&limit=50': ok({ items: [], nextCursor: null }) });
    render('/admin/users?query=zed&status=pending');
    expect(await screen.findByText('No users match these filters.')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('zed');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('pending');
  });
});
