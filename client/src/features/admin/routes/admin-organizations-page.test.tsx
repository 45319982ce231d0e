import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { fail, mockAdminApi, ok, organization } from '../testing/mock-admin-api';
import { AdminOrganizationsPage } from './admin-organizations-page';

const render = () => renderWithApp(<AdminOrganizationsPage />, { route: '/admin/organizations' });
const campus = organization({ id: 'o2', name: 'Sunrise College', slug: 'sunrise', kind: 'campus', seatLimit: 40, memberCount: 12 });

describe('AdminOrganizationsPage', () => {
  it('lists organizations with members, seat limit and a link to their page, and searches by name', async () => {
    const api = mockAdminApi({
      'GET /admin/orgs?limit=50': ok({ items: [organization(), campus], nextCursor: null }),
      'GET /admin/orgs?query=sun&limit=50': ok({ items: [campus], nextCursor: null }),
    });
    const events = userEvent.setup();
    render();
    const table = await screen.findByRole('table', { name: 'Organizations' });
    const [acmeRow, sunriseRow] = within(table).getAllByTestId('organization-row') as [HTMLElement, HTMLElement];
    expect(acmeRow).toHaveTextContent('No limit');
    expect(sunriseRow).toHaveTextContent('Campus');
    expect(sunriseRow).toHaveTextContent('12');
    expect(sunriseRow).toHaveTextContent('40');
    expect(within(sunriseRow).getByRole('link', { name: 'Open Sunrise College' })).toHaveAttribute('href', '/organizations/o2');

    await events.type(screen.getByRole('searchbox', { name: 'Search organizations' }), 'sun');
    await waitFor(() => expect(screen.getAllByTestId('organization-row')).toHaveLength(1));
    expect(api.calls.map((call) => call.path)).toEqual(['/admin/orgs?limit=50', '/admin/orgs?query=sun&limit=50']);
  });

  it('edits the seat limit in place: a number, blank for none, the server’s error beside it', async () => {
    const api = mockAdminApi({
      'GET /admin/orgs?limit=50': ok({ items: [campus], nextCursor: null }),
      'PUT /admin/orgs/o2': (body) => {
        const { seatLimit } = body as { seatLimit: number | null };
        if (seatLimit === 5) return fail(400, 'Seat limit is below the member count', 'VALIDATION_ERROR', { seatLimit: 'Seat limit is below the member count' });
        return ok({ organization: { ...campus, seatLimit } }, 'Organization updated');
      },
    });
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Edit seat limit of Sunrise College' }));
    const field = screen.getByRole('spinbutton', { name: 'Seat limit of Sunrise College' });
    expect(field).toHaveFocus();
    expect(field).toHaveValue(40);
    await events.clear(field);
    await events.type(field, '5');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Seat limit is below the member count', { selector: 'p' })).toBeInTheDocument();
    await events.clear(field);
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Organization updated')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/admin/orgs/o2').map((call) => call.body)).toEqual([{ seatLimit: 5 }, { seatLimit: null }]);
    expect(within(screen.getByTestId('organization-row')).getByText('No limit')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit seat limit of Sunrise College' })).toHaveFocus());
  });
});
