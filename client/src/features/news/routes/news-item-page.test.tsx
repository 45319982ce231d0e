import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithApp } from '@/test/render';
import { graphQLError, newsNode, stubNewsServer } from '../testing/news-server';
import { NewsItemPage } from './news-item-page';

const render = () => renderWithApp(<p>Elsewhere</p>, { route: '/news/n1', routes: [{ path: '/news/:id', element: <NewsItemPage /> }] });

describe('NewsItemPage', () => {
  it('shows the item with its body as paragraphs', async () => {
    stubNewsServer(() => jsonResponse(200, { data: { newsItem: newsNode() } }));
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Campus placements open' })).toBeInTheDocument();
    expect(screen.getByText('First.')).toBeInTheDocument();
    expect(screen.getByText('Second.')).toBeInTheDocument();
  });

  it('says "News item not found" when the server says there is no such item', async () => {
    stubNewsServer(() => graphQLError('News item not found', 'NOT_FOUND'));
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'News item not found' })).toBeInTheDocument();
    expect(screen.getByText('It may have been removed.')).toBeInTheDocument();
  });

  it("shows the server's message for any other failure, not \"not found\"", async () => {
    stubNewsServer(() => graphQLError('The news could not be read right now', 'INTERNAL'));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('The news could not be read right now');
    expect(screen.queryByText('News item not found')).not.toBeInTheDocument();
  });

  it('does not call a network failure "not found"', async () => {
    stubNewsServer(() => Promise.reject(new TypeError('Failed to fetch')));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.queryByText('News item not found')).not.toBeInTheDocument();
  });
});
