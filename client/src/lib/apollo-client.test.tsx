import { gql, type TypedDocumentNode } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, testConfig } from '@/test/render';
import { useSharedApolloClient } from './apollo-client';
import { ConfigProvider } from './config-context';
import { markSignedIn, markSignedOut, useSession } from './session';

const GREETING_QUERY: TypedDocumentNode<{ greeting: { id: string; text: string } }, Record<string, never>> = gql`
  query Greeting {
    greeting {
      id
      text
    }
  }
`;

/** A GraphQL server whose greeting names whoever holds the token, and counts what it is asked. */
function mockGreetingServer() {
  const asked: (string | null)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      const token = window.localStorage.getItem('token');
      asked.push(token);
      return jsonResponse(200, { data: { greeting: { __typename: 'Greeting', id: token ?? 'visitor', text: token ? `Hello ${token}` : 'Hello visitor' } } });
    }),
  );
  return asked;
}

function Greeting() {
  const { data } = useQuery(GREETING_QUERY);
  return <p>{data ? data.greeting.text : 'Loading greeting'}</p>;
}

/** Like the profile: its query runs only while someone is signed in. */
function SignedInGreeting() {
  const session = useSession();
  return session.state === 'signed-in' ? <Greeting /> : <p>Please sign in</p>;
}

function Page({ children }: { children: ReactNode }) {
  return <ApolloProvider client={useSharedApolloClient()}>{children}</ApolloProvider>;
}

const renderPage = (children: ReactNode) =>
  render(
    <ConfigProvider config={testConfig()}>
      <Page>{children}</Page>
    </ConfigProvider>,
  );

const signIn = (name: string) => {
  window.localStorage.setItem('token', name);
  markSignedIn({ id: name, name });
};
const signOut = () => {
  window.localStorage.removeItem('token');
  markSignedOut();
};

describe('the shared Apollo client', () => {
  it('serves a page opened later from what an earlier page loaded', async () => {
    const asked = mockGreetingServer();
    signIn('asha');
    const first = renderPage(<Greeting />);
    expect(await screen.findByText('Hello asha')).toBeInTheDocument();
    first.unmount();
    renderPage(<Greeting />);
    expect(screen.getByText('Hello asha')).toBeInTheDocument();
    expect(asked).toEqual(['asha']);
  });

  it("never shows one account's data to the next: a page opened after sign-out and sign-in asks again", async () => {
    const asked = mockGreetingServer();
    signIn('asha');
    const first = renderPage(<Greeting />);
    expect(await screen.findByText('Hello asha')).toBeInTheDocument();
    first.unmount();
    signOut();
    signIn('ravi');
    renderPage(<Greeting />);
    expect(screen.getByText('Loading greeting')).toBeInTheDocument();
    expect(await screen.findByText('Hello ravi')).toBeInTheDocument();
    expect(asked).toEqual(['asha', 'ravi']);
  });

  it('moves a page on screen to the visitor after sign-out, without asking again for what only the account could see', async () => {
    const asked = mockGreetingServer();
    signIn('asha');
    renderPage(
      <>
        <Greeting />
        <SignedInGreeting />
      </>,
    );
    expect(await screen.findAllByText('Hello asha')).toHaveLength(2);
    act(() => signOut());
    expect(screen.queryByText('Hello asha')).not.toBeInTheDocument();
    expect(screen.getByText('Please sign in')).toBeInTheDocument();
    expect(await screen.findByText('Hello visitor')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    // One request each for the two greetings as Asha (deduplicated into one), one as a visitor.
    expect(asked).toEqual(['asha', null]);
  });
});
