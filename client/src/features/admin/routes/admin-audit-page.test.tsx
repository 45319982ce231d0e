import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { auditEvent, mockAdminApi, ok } from '../testing/mock-admin-api';
import { localToRfc3339 } from '../utils/query';
import { AdminAuditPage } from './admin-audit-page';

const render = (route = '/admin/audit') => renderWithApp(<p>Elsewhere</p>, { route, routes: [{ path: '/admin/audit', element: <AdminAuditPage /> }] });

describe('AdminAuditPage', () => {
  it('lists events newest first with more to load, and exports the same filters as CSV', async () => {
    const from = encodeURIComponent(localToRfc3339('2025-02-01T00:00') ?? '');
    mockAdminApi({
      'GET /admin/audit?userId=u1&limit=50': ok({ items: [auditEvent({ id: 'e2', kind: 'account_suspended', actorId: 'a1', detail: { reason: 'Spam' } })], nextCursor: 'c1' }),
      'GET /admin/audit?userId=u1&limit=50&cursor=c1': ok({ items: [auditEvent()], nextCursor: null }),
      [`GET /admin/audit?userId=u1&kind=sign_in&from=${from}&limit=50`]: ok({ items: [auditEvent()], nextCursor: null }),
    });
    const events = userEvent.setup();
    const { router } = render('/admin/audit?userId=u1');
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByTestId('audit-row')).toHaveTextContent('reason: Spam');
    expect(within(table).getByRole('link', { name: 'a1' })).toHaveAttribute('href', '/admin/users/a1');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/admin/audit.csv?userId=u1');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('download');
    expect(screen.getByRole('textbox', { name: 'User id' })).toHaveValue('u1');

    await events.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));

    await events.type(screen.getByRole('textbox', { name: 'Kind' }), 'sign_in');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-02-01T00:00' } });
    await events.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(1));
    expect(router.state.location.search).toBe('?userId=u1&kind=sign_in&from=2025-02-01T00%3A00');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/admin/audit.csv?userId=u1&kind=sign_in&from=${from}`);

    // Back returns to the log as it was before the filters were applied, form and all.
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?userId=u1');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Kind' })).toHaveValue(''));
    expect(screen.getByRole('textbox', { name: 'User id' })).toHaveValue('u1');
  });
});
