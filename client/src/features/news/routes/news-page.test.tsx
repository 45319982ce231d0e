import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithApp } from '@/test/render';
import { graphQLError, newsNode, stubNewsServer } from '../testing/news-server';
import { NewsPage } from './news-page';

const feed = (nodes: unknown[]) => jsonResponse(200, { data: { news: { __typename: 'NewsConnection', nodes, nextCursor: null } } });
const render = () => renderWithApp(<NewsPage />, { route: '/news' });

describe('NewsPage', () => {
  it('lists the published news for a visitor', async () => {
    stubNewsServer(() => feed([newsNode()]));
    render();
    expect(await screen.findByRole('link', { name: 'Campus placements open' })).toHaveAttribute('href', '/news/n1');
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
  });

  it('shows the Coming Soon panel while there is nothing to read', async () => {
    stubNewsServer(() => feed([]));
    render();
    expect(await screen.findByRole('heading', { name: 'Coming Soon' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says so when the feed cannot be read, with the server's message, instead of Coming Soon", async () => {
    stubNewsServer(() => graphQLError('The news feed is unavailable right now', 'UNAVAILABLE'));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('The news feed is unavailable right now');
    expect(screen.getByRole('heading', { level: 1, name: 'News' })).toBeInTheDocument();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
  });

  it('says so when the network fails too', async () => {
    stubNewsServer(() => Promise.reject(new TypeError('Failed to fetch')));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
  });
});
