import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ThemeClasses } from '@/config/themes';
import { usePageMeta } from '@/lib/use-page-meta';
import { ComingSoonPanel } from './coming-soon-panel';
import { PageHero } from './page-hero';

type ComingSoonPageProps = {
  title: string;
  description: string;
  eyebrow?: string;
  icon?: LucideIcon;
  theme?: ThemeClasses;
  heroExtra?: ReactNode;
};

/** A whole placeholder page: title band, page metadata and the Coming Soon panel. */
export function ComingSoonPage({ title, description, eyebrow, icon, theme, heroExtra }: ComingSoonPageProps) {
  usePageMeta(title, description);
  return (
    <>
      <PageHero title={title} intro={description} eyebrow={eyebrow} icon={icon} theme={theme}>
        {heroExtra}
      </PageHero>
      <div className="px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <ComingSoonPanel theme={theme} />
      </div>
    </>
  );
}
