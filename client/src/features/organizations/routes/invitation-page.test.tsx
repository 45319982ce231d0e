import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { acme, fail, invitationDetails, mockOrgApi, ok } from '../testing/mock-org-api';
import { InvitationPage } from './invitation-page';

const routes = [
  { path: '/organizations/:id', element: <h1>Organization route</h1> },
  { path: '/invitations/:token', element: <InvitationPage /> },
];
const render = () => renderWithApp(<InvitationPage />, { route: '/invitations/tok-1', routes });
const ravi = { id: 'u2', name: 'Ravi Kumar', email: 'Ravi@Example.com', role: 'career' };

describe('InvitationPage', () => {
  it('tells a visitor who invites them to what, with links to sign in or register that come back here', async () => {
    mockOrgApi({ 'GET /invitations/tok-1': ok({ invitation: invitationDetails() }) }, null);
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme Hiring' })).toBeInTheDocument();
    expect(screen.getByText(/Asha Rao invites you to join/)).toHaveTextContent('Asha Rao invites you to join Acme Hiring as a member.');
    expect(screen.getByText('Hire organization')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Finvitations%2Ftok-1');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register?email=ravi%40example.com&next=%2Finvitations%2Ftok-1');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
  });

  it('lets a visitor with no account decline, and then says the link is done with', async () => {
    const api = mockOrgApi(
      {
        'GET /invitations/tok-1': ok({ invitation: invitationDetails() }),
        'POST /invitations/tok-1/decline': ok(null, 'Invitation declined'),
      },
      null,
    );
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation declined' })).toBeInTheDocument();
    expect(screen.getByText(/You will not join/)).toHaveTextContent('You will not join Acme Hiring, and the link no longer works.');
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/invitations/tok-1/decline')).toHaveLength(1);
    expect(document.title).toContain('Invitation declined');
  });

  it('shows the expired page when declining finds the invitation gone', async () => {
    mockOrgApi(
      {
        'GET /invitations/tok-1': ok({ invitation: invitationDetails() }),
        'POST /invitations/tok-1/decline': fail(410, 'This invitation has expired', 'TOKEN_EXPIRED'),
      },
      ravi,
    );
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This invitation has expired' })).toBeInTheDocument();
  });

  it('accepts for a signed-in person (the address in any case) and opens the organization', async () => {
    const api = mockOrgApi(
      {
        'GET /invitations/tok-1': ok({ invitation: invitationDetails({ role: 'admin' }) }),
        'POST /invitations/tok-1/accept': ok({ organization: { ...acme, myRole: 'admin' } }, 'You joined Acme Hiring'),
      },
      ravi,
    );
    const events = userEvent.setup();
    render();
    expect(await screen.findByText(/invites you to join/)).toHaveTextContent('as an admin.');
    expect(screen.queryByText(/You are signed in as/)).not.toBeInTheDocument();
    await events.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'Organization route' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/invitations/tok-1/accept')).toHaveLength(1);
    expect(await screen.findByText('You joined Acme Hiring')).toBeInTheDocument();
  });

  it("warns about another signed-in address and shows the server's refusal", async () => {
    mockOrgApi(
      {
        'GET /invitations/tok-1': ok({ invitation: invitationDetails() }),
        'POST /invitations/tok-1/accept': fail(403, 'This invitation is for another email address', 'FORBIDDEN'),
      },
      { ...ravi, email: 'someone@example.com' },
    );
    const events = userEvent.setup();
    render();
    expect(await screen.findByText(/You are signed in as/)).toHaveTextContent('You are signed in as someone@example.com. This invitation is for ravi@example.com');
    await events.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('This invitation is for another email address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled();
  });

  it('shows the expired page when accepting finds the invitation gone', async () => {
    mockOrgApi(
      {
        'GET /invitations/tok-1': ok({ invitation: invitationDetails() }),
        'POST /invitations/tok-1/accept': fail(410, 'This invitation has expired', 'TOKEN_EXPIRED'),
      },
      ravi,
    );
    const events = userEvent.setup();
    render();
    await events.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This invitation has expired' })).toBeInTheDocument();
  });

  it('says an unknown invitation is not found, and an old one expired', async () => {
    mockOrgApi({ 'GET /invitations/tok-1': fail(404, 'Not found', 'NOT_FOUND') }, null);
    const first = render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation not found' })).toBeInTheDocument();
    first.unmount();
    mockOrgApi({ 'GET /invitations/tok-1': fail(410, 'This invitation has expired', 'TOKEN_EXPIRED') }, null);
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'This invitation has expired' })).toBeInTheDocument();
  });
});
