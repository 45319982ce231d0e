import { accountToast } from '@/lib/account-toast';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useUpdateNews, type NewsInput } from '../api/manage-news';
import { NEWS_ITEM_QUERY, type NewsArticle } from '../api/news-item';
import { NewPostForm } from './new-post-form';

type EditPostProps = {
  item: NewsArticle;
  onDone: () => void;
  /** The heading's level where the form is shown (1 on the post's page, 2 in the console). */
  headingLevel?: 1 | 2;
};

/** An admin's edit of a post: the form filled in, saved with the server's message as a toast. */
export function EditPost({ item, onDone, headingLevel = 1 }: EditPostProps) {
  const [updateNews, { loading }] = useUpdateNews();
  const { errors, setErrors, clear } = useFieldErrors<string>();
  const initial = { title: item.title, summary: item.summary, body: item.body, imageUrl: item.imageUrl, published: item.published };
  const save = async (input: NewsInput) => {
    try {
      const result = await updateNews({ variables: { id: item.id, input }, refetchQueries: [NEWS_ITEM_QUERY] });
      accountToast.success(result.data?.updateNews.message ?? 'News item updated');
      onDone();
      return true;
    } catch (failure) {
      setErrors(graphQLFieldErrors(failure));
      accountToast.error(graphQLMessage(failure, 'Something went wrong'));
      return false;
    }
  };
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <>
      <Heading className={headingLevel === 1 ? 'text-3xl font-bold text-ink-900' : 'text-xl font-bold text-ink-900'}>Edit post</Heading>
      <div className="mt-6">
        <NewPostForm initial={initial} pending={loading} errors={errors} onEdit={clear} onSubmit={save} onCancel={onDone} />
      </div>
    </>
  );
}
