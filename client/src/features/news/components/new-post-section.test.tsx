import { ApolloProvider } from '@apollo/client/react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { jsonResponse, renderWithApp } from '@/test/render';
import { graphQLError, newsNode, stubNewsServer } from '../testing/news-server';
import { EditPost } from './edit-post';
import { NewPostSection } from './new-post-section';

function Apollo({ children }: { children: ReactNode }) {
  return <ApolloProvider client={useSharedApolloClient()}>{children}</ApolloProvider>;
}

const titleError = 'Title is required';
const bodyError = 'Body is required';
const refused = () => graphQLError(titleError, 'BAD_USER_INPUT', { title: titleError, body: bodyError });
const feed = () => jsonResponse(200, { data: { news: { __typename: 'NewsConnection', nodes: [], nextCursor: null } } });

describe('NewPostSection', () => {
  it('marks Title, Summary and Body as required', () => {
    stubNewsServer(feed);
    renderWithApp(
      <Apollo>
        <NewPostSection />
      </Apollo>,
    );
    for (const name of [/Title/, /Summary/, /Body/]) expect(screen.getByRole('textbox', { name })).toBeRequired();
    expect(screen.getByText('Body')).toHaveTextContent('Body*');
    expect(screen.getByRole('textbox', { name: /Image URL/ })).not.toBeRequired();
  });

  it("shows the server's field errors, each until its own field is edited", async () => {
    stubNewsServer((operationName) => (operationName === 'CreateNews' ? refused() : feed()));
    const events = userEvent.setup();
    renderWithApp(
      <Apollo>
        <NewPostSection />
      </Apollo>,
    );
    const section = screen.getByRole('region', { name: 'New post' });
    await events.type(within(section).getByRole('textbox', { name: /Summary/ }), 'A summary');
    await events.click(within(section).getByRole('button', { name: 'Save post' }));
    const title = within(section).getByRole('textbox', { name: /Title/ });
    const body = within(section).getByRole('textbox', { name: /Body/ });
    expect(await within(section).findByText(titleError)).toBeInTheDocument();
    expect(body).toHaveAccessibleDescription(bodyError);

    await events.type(title, 'Placements');
    expect(within(section).queryByText(titleError)).not.toBeInTheDocument();
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(body).toHaveAccessibleDescription(bodyError);
    await events.type(body, 'The story.');
    expect(within(section).queryByText(bodyError)).not.toBeInTheDocument();
  });
});

describe('EditPost', () => {
  it("clears the server's error on a field once that field is edited", async () => {
    stubNewsServer((operationName) => (operationName === 'UpdateNews' ? refused() : feed()));
    const events = userEvent.setup();
    renderWithApp(
      <Apollo>
        <EditPost item={newsNode()} onDone={() => {}} />
      </Apollo>,
    );
    const title = screen.getByRole('textbox', { name: /Title/ });
    await events.clear(title);
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(bodyError)).toBeInTheDocument();
    expect(title).toHaveAccessibleDescription(titleError);
    await events.type(title, 'New title');
    expect(title).not.toHaveAccessibleDescription(titleError);
    expect(screen.getByRole('textbox', { name: /Body/ })).toHaveAccessibleDescription(bodyError);
  });
});
