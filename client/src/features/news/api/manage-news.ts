import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { NEWS_FEED_QUERY } from './news-feed';
import { NEWS_ARTICLE_FIELDS, type NewsArticle } from './news-item';

export type NewsInput = { title: string; summary: string; body: string; imageUrl?: string | null; published: boolean };

export const CREATE_NEWS_MUTATION: TypedDocumentNode<{ createNews: { message: string; item: { id: string } } }, { input: NewsInput }> = gql`
  mutation CreateNews($input: CreateNewsInput!) {
    createNews(input: $input) {
      message
      item {
        id
      }
    }
  }
`;

/** Asks for every field the feed and the post's page show, so the cached item changes in place. */
export const UPDATE_NEWS_MUTATION: TypedDocumentNode<{ updateNews: { message: string; item: NewsArticle } }, { id: string; input: NewsInput }> = gql`
  mutation UpdateNews($id: ID!, $input: UpdateNewsInput!) {
    updateNews(id: $id, input: $input) {
      message
      item {
        ...NewsArticleFields
      }
    }
  }
  ${NEWS_ARTICLE_FIELDS}
`;

export const DELETE_NEWS_MUTATION: TypedDocumentNode<{ deleteNews: { message: string } }, { id: string }> = gql`
  mutation DeleteNews($id: ID!) {
    deleteNews(id: $id) {
      message
    }
  }
`;

/**
 * SPEC.md section 4: news create, update and delete invalidate the cached news. A new post
 * reloads the feed (it goes first); an edit and a delete change the cache in place instead, so
 * the pages an admin has loaded with "Load more" stay loaded.
 */
export const useCreateNews = () => useMutation(CREATE_NEWS_MUTATION, { refetchQueries: [NEWS_FEED_QUERY] });
/** The answer's item replaces the cached one by id, in the feed and on the post's page. */
export const useUpdateNews = () => useMutation(UPDATE_NEWS_MUTATION);
/** The item leaves the cache, and with it every loaded page of the feed (dangling references are dropped). */
export const useDeleteNews = () =>
  useMutation(DELETE_NEWS_MUTATION, {
    update: (cache, _result, { variables }) => {
      if (!variables) return;
      cache.evict({ id: cache.identify({ __typename: 'NewsItem', id: variables.id }) });
      cache.gc();
    },
  });
