import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { acme, fail, me, mockOrgApi, ok } from '../testing/mock-org-api';
import { OrganizationsPage } from './organizations-page';

const routes = [
  { path: '/login', element: <h1>Login route</h1> },
  { path: '/organizations/:id', element: <h1>Organization route</h1> },
];
const render = () => renderWithApp(<OrganizationsPage />, { route: '/organizations', routes });
const campusInstitute = { ...acme, id: 'o2', name: 'Sunrise College', kind: 'campus' as const, memberCount: 1, myRole: 'member' as const };

describe('OrganizationsPage', () => {
  it('asks a signed-out visitor to sign in and come back, without asking for organizations', async () => {
    const api = mockOrgApi({}, null);
    render();
    expect(await screen.findByText('Please sign in to see your organizations.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login?redirect=%2Forganizations');
    expect(api.calls).toHaveLength(0);
  });

  it("lists the person's organizations with kind, role and member count", async () => {
    mockOrgApi({ 'GET /orgs': ok({ organizations: [acme, campusInstitute] }) });
    render();
    const rows = await screen.findAllByTestId('organization');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Acme Hiring' })).toHaveAttribute('href', '/organizations/o1');
    expect(rows[0]).toHaveTextContent('Hire organization · 3 members');
    expect(rows[0]).toHaveTextContent('Your role: Owner');
    expect(rows[1]).toHaveTextContent('Campus institute · 1 member');
    expect(rows[1]).toHaveTextContent('Your role: Member');
    expect(screen.getByRole('heading', { level: 1, name: 'Organizations' })).toBeInTheDocument();
  });

  it('offers the create form to Hire and Campus accounts only', async () => {
    mockOrgApi({ 'GET /orgs': ok({ organizations: [] }) }, { ...me, role: 'career' });
    render();
    expect(await screen.findByText(/You are not in any organization yet/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create organization' })).not.toBeInTheDocument();
  });

  it('checks the form, then shows the server field errors and the message as a toast', async () => {
    const api = mockOrgApi({
      'GET /orgs': ok({ organizations: [] }),
      'POST /orgs': fail(409, 'An organization with this slug already exists', 'CONFLICT', { slug: 'An organization with this slug already exists' }),
    });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Create organization' });
    await events.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(within(form).getByText('Organization name is required')).toBeInTheDocument();
    // The person lands on what needs fixing, not on the button.
    await waitFor(() => expect(within(form).getByLabelText(/Organization name/)).toHaveFocus());
    await events.type(within(form).getByLabelText(/Slug/), 'No Good');
    await events.type(within(form).getByLabelText(/Organization name/), 'Acme');
    expect(within(form).queryByText('Organization name is required')).not.toBeInTheDocument();
    await events.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(within(form).getByText('Slug may use lowercase letters, digits and hyphens (3-40)')).toBeInTheDocument();
    expect(api.callsTo('POST', '/orgs')).toHaveLength(0);

    await events.clear(within(form).getByLabelText(/Slug/));
    await events.type(within(form).getByLabelText(/Slug/), 'acme');
    await events.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(await within(form).findByText('An organization with this slug already exists')).toBeInTheDocument();
    expect(within(form).getByLabelText(/Slug/)).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.getAllByText('An organization with this slug already exists')).toHaveLength(2));
    expect(api.callsTo('POST', '/orgs')[0]?.body).toEqual({ name: 'Acme', slug: 'acme' });
  });

  it('creates an organization without a slug and opens its page', async () => {
    const api = mockOrgApi({
      'GET /orgs': ok({ organizations: [] }),
      'POST /orgs': ok({ organization: { ...acme, id: 'o9' } }, 'Organization created', 201),
    });
    const events = userEvent.setup();
    render();
    const form = await screen.findByRole('form', { name: 'Create organization' });
    await events.type(within(form).getByLabelText(/Organization name/), '  Acme Hiring ');
    await events.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(await screen.findByRole('heading', { name: 'Organization route' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/orgs')[0]?.body).toEqual({ name: 'Acme Hiring' });
    expect(await screen.findByText('Organization created')).toBeInTheDocument();
  });
});
