import { ApolloProvider } from '@apollo/client/react';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { mockApi } from '@/test/mock-api';
import { renderWithApp } from '@/test/render';
import { ApplicationsSection } from './applications-section';

function WithApollo() {
  return (
    <ApolloProvider client={useSharedApolloClient()}>
      <ApplicationsSection />
    </ApolloProvider>
  );
}

const EMPTY_TEXT = 'No other application can sign you in with your account. Hire, Campus and Career always can.';

describe('ApplicationsSection', () => {
  it("shows the server's words, not an empty list, when the applications cannot be loaded", async () => {
    mockApi({ '/graphql': { status: 200, body: { data: null, errors: [{ message: 'Session expired or unauthorized', extensions: { code: 'UNAUTHENTICATED' } }] } } });
    renderWithApp(<WithApollo />, { route: '/security' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Session expired or unauthorized');
    expect(screen.queryByText(EMPTY_TEXT)).not.toBeInTheDocument();
  });

  it('lists each application allowed to sign the person in', async () => {
    const app = { __typename: 'AuthorizedApplication', clientId: 'c1', name: 'Partner Jobs', scopes: ['openid', 'email'], since: '2026-01-05T10:00:00Z' };
    mockApi({ '/graphql': { status: 200, body: { data: { authorizedApplications: [app] } } } });
    renderWithApp(<WithApollo />, { route: '/security' });
    expect(await screen.findByTestId('application')).toHaveTextContent('Partner Jobs');
    expect(screen.getByText(/Sees who you are, your email address/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
