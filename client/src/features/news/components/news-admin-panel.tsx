import { LoaderCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '@/components/button-styles';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { accountToast } from '@/lib/account-toast';
import { graphQLMessage } from '@/lib/graphql-errors';
import { usePageMeta } from '@/lib/use-page-meta';
import { useDeleteNews } from '../api/manage-news';
import { useNewsFeed, type NewsSummary } from '../api/news-feed';
import { useNewsItem } from '../api/news-item';
import { EditPost } from './edit-post';
import { NewPostSection } from './new-post-section';
import { NewsList } from './news-list';

const FALLBACK = 'Something went wrong';

/** The post being edited, once its body has loaded. */
function EditLoadedPost({ id, onDone }: { id: string; onDone: () => void }) {
  const { data, loading, error } = useNewsItem(id);
  const frame = useRef<HTMLDivElement>(null);
  // The form opens above the list: focus goes to it rather than staying on the Edit button.
  useEffect(() => {
    frame.current?.focus();
    frame.current?.scrollIntoView?.({ block: 'start' });
  }, []);
  let content;
  if (data?.newsItem) content = <EditPost item={data.newsItem} onDone={onDone} headingLevel={2} />;
  else if (loading)
    content = (
      <p role="status" className="flex items-center gap-2 text-ink-700">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        Loading post...
      </p>
    );
  else
    content = (
      <>
        <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
          {graphQLMessage(error, FALLBACK)}
        </p>
        <button type="button" onClick={onDone} className={`${buttonClass('secondary', 'md')} mt-4`}>
          Back to the posts
        </button>
      </>
    );
  return (
    <div ref={frame} tabIndex={-1} className="rounded-2xl bg-paper p-6 shadow-sm ring-1 ring-ink-200 focus:outline-none">
      {content}
    </div>
  );
}

/**
 * The news as the admin console shows it (`/admin/news`): a new post, then every post, drafts
 * included, each edited in place or deleted after a confirmation. /news keeps its own controls.
 */
export function NewsAdminPanel() {
  usePageMeta('News · Admin', 'Write, publish and remove the posts of the Talent Suite news feed.');
  const { data, loading, error, loadMore } = useNewsFeed();
  const [deleteNews, deleteState] = useDeleteNews();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<NewsSummary | null>(null);
  const items = data?.news.nodes ?? [];

  const remove = async () => {
    if (!deleting) return;
    try {
      const result = await deleteNews({ variables: { id: deleting.id } });
      accountToast.success(result.data?.deleteNews.message ?? 'News item deleted');
    } catch (failure) {
      accountToast.error(graphQLMessage(failure, FALLBACK));
    } finally {
      setDeleting(null);
    }
  };

  let posts;
  if (!data && loading)
    posts = (
      <p role="status" className="flex items-center gap-2 text-ink-700">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
        Loading news...
      </p>
    );
  else if (error && !data)
    posts = (
      <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
        {graphQLMessage(error, FALLBACK)}
      </p>
    );
  else if (items.length === 0) posts = <p className="text-ink-700">No posts yet.</p>;
  else posts = <NewsList items={items} isAdmin deleting={deleteState.loading} onDelete={setDeleting} onEdit={(item) => setEditing(item.id)} />;

  return (
    <div className="grid gap-6">
      <h1 className="text-3xl font-bold tracking-tight text-ink-900">
        News
      </h1>
      {editing ? <EditLoadedPost id={editing} onDone={() => setEditing(null)} /> : <NewPostSection />}
      <SectionCard title="Posts">
        <div className="grid gap-4">
          {posts}
          {data?.news.nextCursor ? (
            <div>
              <button type="button" aria-disabled={loading || undefined} onClick={() => {
                if (!loading) void loadMore(data.news.nextCursor ?? '');
              }} className={buttonClass('secondary', 'md')}>
                {loading ? 'Loading…' : 'Load more'}
              </button>
            </div>
          ) : null}
        </div>
      </SectionCard>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete "${deleting?.title ?? ''}"?`}
        confirmLabel="Delete post"
        pendingLabel="Deleting…"
        pending={deleteState.loading}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      >
        The post disappears from the news feed, and this cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
