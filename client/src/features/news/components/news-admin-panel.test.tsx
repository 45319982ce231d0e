import { ApolloProvider } from '@apollo/client/react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { jsonResponse, renderWithApp } from '@/test/render';
import { NewsAdminPanel } from './news-admin-panel';

function Apollo({ children }: { children: ReactNode }) {
  return <ApolloProvider client={useSharedApolloClient()}>{children}</ApolloProvider>;
}

type Post = { id: string; title: string; summary: string; body: string; published: boolean };

/** GraphQL for the news: the feed, one post, and update and delete changing them. */
function newsServer(initial: Post[]) {
  let posts = [...initial];
  const node = (post: Post) => ({ __typename: 'NewsItem', imageUrl: null, publishedAt: null, createdAt: '2025-01-10T09:00:00Z', author: null, ...post });
  const operations: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      if (String(input).endsWith('/auth/verify')) return jsonResponse(200, { success: true, data: { user: { id: 'a1', name: 'Ada', role: 'admin' } } });
      const { operationName, variables } = JSON.parse(String(init?.body)) as { operationName: string; variables: Record<string, unknown> };
      operations.push(operationName);
      if (operationName === 'NewsFeed') return jsonResponse(200, { data: { news: { __typename: 'NewsConnection', nodes: posts.map(node), nextCursor: null } } });
      if (operationName === 'NewsItem') return jsonResponse(200, { data: { newsItem: node(posts.find((post) => post.id === variables.id) as Post) } });
      if (operationName === 'UpdateNews') {
        const update = variables.input as Partial<Post>;
        posts = posts.map((post) => (post.id === variables.id ? { ...post, ...update } : post));
        const updated = posts.find((post) => post.id === variables.id) as Post;
        return jsonResponse(200, { data: { updateNews: { __typename: 'NewsPayload', message: 'News item updated', item: node(updated) } } });
      }
      if (operationName === 'DeleteNews') {
        posts = posts.filter((post) => post.id !== variables.id);
        return jsonResponse(200, { data: { deleteNews: { __typename: 'MessagePayload', message: 'News item deleted' } } });
      }
      return jsonResponse(200, { data: null, errors: [{ message: `No mock for ${operationName}` }] });
    }),
  );
  return operations;
}

const draft: Post = { id: 'n1', title: 'Draft note', summary: 'Not out yet.', body: 'First.\n\nSecond.', published: false };

describe('NewsAdminPanel', () => {
  it('lists drafts too, edits a post in place and deletes one after asking', async () => {
    newsServer([draft]);
    const events = userEvent.setup();
    renderWithApp(
      <Apollo>
        <NewsAdminPanel />
      </Apollo>,
    );
    const item = await screen.findByTestId('news-item');
    expect(item).toHaveTextContent('Draft');
    expect(screen.getByRole('region', { name: 'New post' })).toBeInTheDocument();

    await events.click(within(item).getByRole('button', { name: /^Edit ?Draft note$/ }));
    const title = await screen.findByRole('textbox', { name: /Title/ });
    expect(title).toHaveValue('Draft note');
    expect(screen.queryByRole('region', { name: 'New post' })).not.toBeInTheDocument();
    await events.clear(title);
    await events.type(title, 'Placement note');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('News item updated')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Placement note' });

    await events.click(screen.getByRole('button', { name: /^Delete ?Placement note$/ }));
    const ask = screen.getByRole('alertdialog', { name: 'Delete "Placement note"?' });
    await events.click(within(ask).getByRole('button', { name: 'Delete post' }));
    expect(await screen.findByText('News item deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No posts yet.')).toBeInTheDocument());
  });
  it('keeps the pages loaded with "Load more" when a post on a later page is edited or deleted', async () => {
    const node = (id: string, title: string) => ({ __typename: 'NewsItem', id, title, summary: `About ${title}.`, body: 'Text.', imageUrl: null, published: true, publishedAt: '2025-01-10T09:00:00Z', createdAt: '2025-01-10T09:00:00Z', author: null });
    const firstPage = Array.from({ length: 10 }, (_, index) => node(`p${index}`, `Post ${index}`));
    let later = node('p10', 'Post 10');
    const feeds: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input, init) => {
        if (String(input).endsWith('/auth/verify')) return jsonResponse(200, { success: true, data: { user: { id: 'a1', name: 'Ada', role: 'admin' } } });
        const { operationName, variables } = JSON.parse(String(init?.body)) as { operationName: string; variables: Record<string, unknown> };
        if (operationName === 'NewsFeed') {
          feeds.push(variables);
          const page = variables.after === 'c10' ? { nodes: [later], nextCursor: null } : { nodes: firstPage, nextCursor: 'c10' };
          return jsonResponse(200, { data: { news: { __typename: 'NewsConnection', ...page } } });
        }
        if (operationName === 'NewsItem') return jsonResponse(200, { data: { newsItem: later } });
        if (operationName === 'UpdateNews') {
          later = { ...later, ...(variables.input as { title: string }) };
          return jsonResponse(200, { data: { updateNews: { __typename: 'NewsPayload', message: 'News item updated', item: later } } });
        }
        if (operationName === 'DeleteNews') return jsonResponse(200, { data: { deleteNews: { __typename: 'MessagePayload', message: 'News item deleted' } } });
        return jsonResponse(200, { data: null, errors: [{ message: `No mock for ${operationName}` }] });
      }),
    );
    const events = userEvent.setup();
    renderWithApp(
      <Apollo>
        <NewsAdminPanel />
      </Apollo>,
    );
    await waitFor(() => expect(screen.getAllByTestId('news-item')).toHaveLength(10));
    await events.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('news-item')).toHaveLength(11));

    await events.click(screen.getByRole('button', { name: /^Edit ?Post 10$/ }));
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await events.clear(title);
    await events.type(title, 'Post ten');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('News item updated')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Post ten' })).toBeInTheDocument();
    expect(screen.getAllByTestId('news-item')).toHaveLength(11);

    await events.click(screen.getByRole('button', { name: /^Delete ?Post ten$/ }));
    await events.click(within(screen.getByRole('alertdialog', { name: 'Delete "Post ten"?' })).getByRole('button', { name: 'Delete post' }));
    expect(await screen.findByText('News item deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('news-item')).toHaveLength(10));
    expect(screen.queryByRole('link', { name: 'Post ten' })).not.toBeInTheDocument();
    // Neither change sent the feed back to its first page.
    expect(feeds).toHaveLength(2);
    expect(screen.getByRole('button', { name: /^Edit ?Post 9$/ })).toBeInTheDocument();
  });
});
