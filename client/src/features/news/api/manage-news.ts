import { gql, type TypedDocumentNode } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { NEWS_FEED_QUERY } from './news-feed';

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

export const UPDATE_NEWS_MUTATION: TypedDocumentNode<{ updateNews: { message: string; item: { id: string } } }, { id: string; input: NewsInput }> = gql`
  mutation UpdateNews($id: ID!, $input: UpdateNewsInput!) {
    updateNews(id: $id, input: $input) {
      message
      item {
        id
      }
    }
  }
`;

export const DELETE_NEWS_MUTATION: TypedDocumentNode<{ deleteNews: { message: string } }, { id: string }> = gql`
  mutation DeleteNews($id: ID!) {
    deleteNews(id: $id) {
      message
    }
  }
`;

/** SPEC.md section 4: news create, update and delete invalidate the cached feed. */
export const useCreateNews = () => useMutation(CREATE_NEWS_MUTATION, { refetchQueries: [NEWS_FEED_QUERY] });
export const useUpdateNews = () => useMutation(UPDATE_NEWS_MUTATION, { refetchQueries: [NEWS_FEED_QUERY] });
export const useDeleteNews = () => useMutation(DELETE_NEWS_MUTATION, { refetchQueries: [NEWS_FEED_QUERY] });
