import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { NEWS_SUMMARY_FIELDS, type NewsSummary } from './news-feed';

export type NewsArticle = NewsSummary & { body: string };

/** Everything the post's page shows; an edit's answer asks for it too, so the cache updates. */
export const NEWS_ARTICLE_FIELDS = gql`
  fragment NewsArticleFields on NewsItem {
    ...NewsSummaryFields
    body
  }
  ${NEWS_SUMMARY_FIELDS}
`;

export const NEWS_ITEM_QUERY: TypedDocumentNode<{ newsItem: NewsArticle }, { id: string }> = gql`
  query NewsItem($id: ID!) {
    newsItem(id: $id) {
      ...NewsArticleFields
    }
  }
  ${NEWS_ARTICLE_FIELDS}
`;

export const useNewsItem = (id: string) => useQuery(NEWS_ITEM_QUERY, { variables: { id } });
