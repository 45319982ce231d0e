import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';

export type NewsSummary = {
  id: string;
  title: string;
  summary: string;
  imageUrl: string | null;
  published: boolean;
  publishedAt: string | null;
  createdAt: string;
  author: { name: string } | null;
};

export const PAGE_SIZE = 10;

/** What the feed shows of an item; the post's page and an edit ask for it too (news-item.ts). */
export const NEWS_SUMMARY_FIELDS = gql`
  fragment NewsSummaryFields on NewsItem {
    id
    title
    summary
    imageUrl
    published
    publishedAt
    createdAt
    author {
      name
    }
  }
`;

export const NEWS_FEED_QUERY: TypedDocumentNode<{ news: { nodes: NewsSummary[]; nextCursor: string | null } }, { first: number; after?: string | null }> = gql`
  query NewsFeed($first: Int, $after: String) {
    news(first: $first, after: $after) {
      nodes {
        ...NewsSummaryFields
      }
      nextCursor
    }
  }
  ${NEWS_SUMMARY_FIELDS}
`;

/** The feed, newest first; "Load more" appends the next keyset page. */
export function useNewsFeed() {
  const result = useQuery(NEWS_FEED_QUERY, { variables: { first: PAGE_SIZE }, notifyOnNetworkStatusChange: true });
  const loadMore = (after: string) =>
    result.fetchMore({
      variables: { first: PAGE_SIZE, after },
      updateQuery: (previous, { fetchMoreResult }) =>
        fetchMoreResult
          ? { news: { nodes: [...previous.news.nodes, ...fetchMoreResult.news.nodes], nextCursor: fetchMoreResult.news.nextCursor } }
          : previous,
    });
  return { ...result, loadMore };
}
