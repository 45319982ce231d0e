import { SectionCard } from '@/components/section-card';
import { accountToast } from '@/lib/account-toast';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useCreateNews, type NewsInput } from '../api/manage-news';
import { NewPostForm } from './new-post-form';

/** An admin's "New post" card: the form, the server's field errors, and its message as a toast. */
export function NewPostSection() {
  const [createNews, { loading }] = useCreateNews();
  const { errors, setErrors, clear } = useFieldErrors<string>();
  const submit = async (input: NewsInput) => {
    try {
      const result = await createNews({ variables: { input } });
      setErrors({});
      accountToast.success(result.data?.createNews.message ?? 'News item created');
      return true;
    } catch (failure) {
      setErrors(graphQLFieldErrors(failure));
      accountToast.error(graphQLMessage(failure, 'Something went wrong'));
      return false;
    }
  };
  return (
    <SectionCard title="New post">
      <NewPostForm pending={loading} errors={errors} onEdit={clear} onSubmit={submit} />
    </SectionCard>
  );
}
