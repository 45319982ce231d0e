import { ComingSoonPage } from '@/components/coming-soon-page';
import { placeholderPages, type PlaceholderKey } from '../data/placeholder-pages';

export function PlaceholderPage({ page }: { page: PlaceholderKey }) {
  const content = placeholderPages[page];
  return <ComingSoonPage title={content.title} eyebrow={content.eyebrow} description={content.description} icon={content.icon} />;
}
