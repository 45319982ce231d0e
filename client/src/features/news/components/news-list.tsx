import { Link } from 'react-router-dom';
import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import type { NewsSummary } from '../api/news-feed';

export const newsDate = (item: Pick<NewsSummary, 'publishedAt' | 'createdAt'>) =>
  new Date(item.publishedAt ?? item.createdAt).toLocaleDateString(undefined, { dateStyle: 'long' });

type NewsListProps = {
  items: NewsSummary[];
  isAdmin: boolean;
  deleting: boolean;
  onDelete: (item: NewsSummary) => void;
  /** Editing in place (the admin console); elsewhere a post is edited on its own page. */
  onEdit?: (item: NewsSummary) => void;
};

/** The feed's items, newest first; drafts are marked, and admins get a delete button (and an edit one when asked). */
export function NewsList({ items, isAdmin, deleting, onDelete, onEdit }: NewsListProps) {
  return (
    <ul className="grid gap-4">
      {items.map((item) => (
        <li key={item.id} className="rounded-2xl bg-paper p-6 shadow-sm ring-1 ring-ink-200" data-testid="news-item">
          <p className="text-sm text-ink-600">
            {newsDate(item)} · {item.author?.name ?? 'Talent Suite'}
            {item.published ? null : <span className={`ml-2 rounded-full px-2 py-0.5 text-xs font-semibold ${badgeTone.warning}`}>Draft</span>}
          </p>
          <h2 className="mt-1 text-xl font-bold text-ink-900">
            <Link to={paths.newsItem.getHref(item.id)} className="hover:underline">
              {item.title}
            </Link>
          </h2>
          <p className="mt-2 text-ink-700">{item.summary}</p>
          {isAdmin ? (
            <div className="mt-4 flex flex-wrap gap-2">
              {onEdit ? (
                <button type="button" onClick={() => onEdit(item)} className={buttonClass('secondary', 'sm')}>
                  Edit<span className="sr-only"> {item.title}</span>
                </button>
              ) : null}
              <button type="button" disabled={deleting} onClick={() => onDelete(item)} className={buttonClass('secondary', 'sm')}>
                Delete<span className="sr-only"> {item.title}</span>
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
