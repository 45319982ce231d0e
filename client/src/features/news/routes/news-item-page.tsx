import { ApolloProvider } from '@apollo/client/react';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { buttonClass } from '@/components/button-styles';
import { graphQLErrorCode, graphQLMessage } from '@/lib/graphql-errors';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { useNewsItem } from '../api/news-item';
import { EditPost } from '../components/edit-post';
import { newsDate } from '../components/news-list';

/** `/news/{id}`: one item, its body as plain paragraphs. */
export function NewsItemPage() {
  const client = useSharedApolloClient();
  const { id = '' } = useParams();
  return (
    <ApolloProvider client={client}>
      <Article id={id} />
    </ApolloProvider>
  );
}

function Article({ id }: { id: string }) {
  const { data, loading, error } = useNewsItem(id);
  const session = useSession();
  const isAdmin = session.state === 'signed-in' && session.user.role?.toLowerCase() === 'admin';
  const [editing, setEditing] = useState(false);
  const item = data?.newsItem;
  usePageMeta(item?.title ?? 'News', item?.summary ?? 'A story from the Talent Suite news feed.');
  let content;
  if (loading && !item) {
    content = (
      <p role="status" className="flex items-center gap-2 text-ink-700">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        Loading news...
      </p>
    );
  } else if (!item && graphQLErrorCode(error) === 'NOT_FOUND') {
    content = (
      <>
        <h1 className="text-3xl font-bold text-ink-900">News item not found</h1>
        <p className="mt-2 text-ink-700">It may have been removed.</p>
      </>
    );
  } else if (!item) {
    // Any other failure (the network, the server) is no answer about the item: say what went wrong.
    content = (
      <>
        <h1 className="text-3xl font-bold text-ink-900">News</h1>
        <p role="alert" className="mt-4 rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
          {graphQLMessage(error, 'Something went wrong')}
        </p>
      </>
    );
  } else if (editing) {
    content = <EditPost item={item} onDone={() => setEditing(false)} />;
  } else {
    content = (
      <article>
        <p className="text-sm text-ink-600">
          {newsDate(item)} · {item.author?.name ?? 'Talent Suite'}
        </p>
        <h1 className="mt-1 text-3xl font-bold text-ink-900">{item.title}</h1>
        {isAdmin ? (
          <button type="button" onClick={() => setEditing(true)} className={`${buttonClass('secondary', 'sm')} mt-3`}>
            Edit<span className="sr-only"> {item.title}</span>
          </button>
        ) : null}
        {item.imageUrl ? <img src={item.imageUrl} alt="" className="mt-6 w-full rounded-2xl object-cover" /> : null}
        <p className="mt-6 text-lg text-ink-800">{item.summary}</p>
        {item.body
          .split(/\n\s*\n/)
          .filter((paragraph) => paragraph.trim() !== '')
          .map((paragraph, index) => (
            <p key={index} className="mt-4 whitespace-pre-line text-ink-800">
              {paragraph}
            </p>
          ))}
      </article>
    );
  }
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link to={paths.news.getHref()} className="text-sm font-semibold text-accent-strong hover:underline">
        ← All news
      </Link>
      <div className="mt-4">{content}</div>
    </div>
  );
}
