import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUser, mockAdminApi, ok } from '@/features/admin/testing/mock-admin-api';
import { renderWithApp } from '@/test/render';
import { AdminConsolePage } from './admin-console';

// Mounted at /admin/* as in the app, so the console's own routes resolve beneath it.
const render = (route: string) => renderWithApp(<h1>Outside the console</h1>, { route, routes: [{ path: '/admin/*', element: <AdminConsolePage /> }] });
const member = { id: 'u9', name: 'Mina Member', email: 'mina@example.com', role: 'career' };

describe('AdminConsolePage', () => {
  it('shows a signed-out visitor the 404 page and asks the server for nothing else', async () => {
    const api = mockAdminApi({}, { signedIn: null });
    render('/admin/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows a signed-in member the same 404 page', async () => {
    const api = mockAdminApi({}, { signedIn: member });
    render('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin console' })).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('takes an admin from /admin to the users, with a link to every section', async () => {
    mockAdminApi({ 'GET /admin/users?limit=50': ok({ items: [adminUser()], nextCursor: null }) });
    const { router } = render('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users');
    const nav = screen.getByRole('navigation', { name: 'Admin console' });
    for (const [name, href] of [
      ['Users', '/admin/users'],
      ['Organizations', '/admin/organizations'],
      ['Audit log', '/admin/audit'],
      ['Applications', '/admin/applications'],
      ['News', '/admin/news'],
    ]) {
      expect(nav.querySelector(`a[href="${href}"]`)).toHaveTextContent(name as string);
    }
    expect(nav.querySelector('a[href="/admin/users"]')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('link', { name: 'Mina Member' })).toHaveAttribute('href', '/admin/users/u1');
  });

  it('shows an admin the 404 page for a section that does not exist', async () => {
    mockAdminApi({});
    render('/admin/nothing-here');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});
