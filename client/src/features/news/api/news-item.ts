import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import type { NewsSummary } from './news-feed';

export type NewsArticle = NewsSummary & { body: string };

export const NEWS_ITEM_QUERY: TypedDocumentNode<{ newsItem: NewsArticle }, { id: string }> = gql`
  query NewsItem($id: ID!) {
    newsItem(id: $id) {
      id
      title
      summary
      body
      imageUrl
      published
      publishedAt
      createdAt
      author {
        name
      }
    }
  }
`;

export const useNewsItem = (id: string) => useQuery(NEWS_ITEM_QUERY, { variables: { id } });
