import { ApolloProvider } from '@apollo/client/react';
import { LoaderCircle, Newspaper } from 'lucide-react';
import { buttonClass } from '@/components/button-styles';
import { ComingSoonPage } from '@/components/coming-soon-page';
import { PageHero } from '@/components/page-hero';
import { accountToast } from '@/lib/account-toast';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { graphQLMessage } from '@/lib/graphql-errors';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { useDeleteNews } from '../api/manage-news';
import { useNewsFeed, type NewsSummary } from '../api/news-feed';
import { NewPostSection } from '../components/new-post-section';
import { NewsList } from '../components/news-list';

export const NEWS_TITLE = 'News';
export const NEWS_DESCRIPTION = 'Product updates, announcements and stories from across the Talent Suite ecosystem.';

/** `/news`: the published feed (drafts too for admins), newest first, with "Load more". */
export function NewsPage() {
  const client = useSharedApolloClient();
  return (
    <ApolloProvider client={client}>
      <Feed />
    </ApolloProvider>
  );
}

function Feed() {
  const session = useSession();
  const isAdmin = session.state === 'signed-in' && session.user.role?.toLowerCase() === 'admin';
  const { data, loading, error, loadMore } = useNewsFeed();
  const [deleteNews, deleteState] = useDeleteNews();
  const items = data?.news.nodes ?? [];
  usePageMeta(NEWS_TITLE, NEWS_DESCRIPTION);

  if (!data && loading) {
    // The heading stands while the feed loads (and in the prerendered page), so the stories
    // arrive under it instead of pushing it into place.
    return (
      <>
        <PageHero title={NEWS_TITLE} intro={NEWS_DESCRIPTION} eyebrow="Resources" icon={Newspaper} />
        <p role="status" className="mx-auto flex max-w-3xl items-center gap-2 px-4 py-12 text-ink-700">
          <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
          Loading news...
        </p>
      </>
    );
  }
  // SPEC.md allows the Coming Soon panel while there is nothing to read; a feed that could not
  // be read says so instead (below).
  const failed = Boolean(error) && !data;
  if (items.length === 0 && !isAdmin && !failed) {
    return <ComingSoonPage title={NEWS_TITLE} eyebrow="Resources" description={NEWS_DESCRIPTION} icon={Newspaper} />;
  }
  const remove = async (item: NewsSummary) => {
    if (!window.confirm(`Delete "${item.title}"? This cannot be undone.`)) return;
    try {
      const result = await deleteNews({ variables: { id: item.id } });
      accountToast.success(result.data?.deleteNews.message ?? 'News item deleted');
    } catch (failure) {
      accountToast.error(graphQLMessage(failure, 'Something went wrong'));
    }
  };
  return (
    <>
      <PageHero title={NEWS_TITLE} intro={NEWS_DESCRIPTION} eyebrow="Resources" icon={Newspaper} />
      <div className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
        {isAdmin ? <NewPostSection /> : null}
        {failed ? (
          <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
            {graphQLMessage(error, 'Something went wrong')}
          </p>
        ) : null}
        <NewsList items={items} isAdmin={isAdmin} deleting={deleteState.loading} onDelete={(item) => void remove(item)} />
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
    </>
  );
}
