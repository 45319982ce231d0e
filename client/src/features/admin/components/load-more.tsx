import { buttonClass } from '@/components/button-styles';
import { failureMessage } from '../api/request';

type LoadMoreProps = { nextCursor: string | null; loading: boolean; error: unknown; onLoadMore: () => void };

/** "Load more" while the server says there is a page after; the failure of the last try, if any.
 * While a page loads the button says so and ignores presses, but stays enabled: a disabled
 * button drops the keyboard's focus to the page. */
export function LoadMore({ nextCursor, loading, error, onLoadMore }: LoadMoreProps) {
  if (!nextCursor) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" aria-disabled={loading || undefined} onClick={() => {
          if (!loading) onLoadMore();
        }} className={buttonClass('secondary', 'md')}>
        {loading ? 'Loading…' : 'Load more'}
      </button>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {failureMessage(error)}
        </p>
      ) : null}
    </div>
  );
}
