import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { brandTheme, type ThemeClasses } from '@/config/themes';

type PageHeroProps = {
  title: string;
  intro: string;
  eyebrow?: string;
  icon?: LucideIcon;
  theme?: ThemeClasses;
  children?: ReactNode;
};

/** Title band at the top of inner pages; holds the page's only h1. */
export function PageHero({ title, intro, eyebrow, icon: Icon, theme = brandTheme, children }: PageHeroProps) {
  return (
    <div className={`border-b ${theme.border} ${theme.soft}`}>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <div className="flex items-start gap-4">
          {Icon ? (
            <span className={`hidden size-12 shrink-0 items-center justify-center rounded-xl text-white sm:flex ${theme.solid}`}>
              <Icon aria-hidden="true" className="size-6" />
            </span>
          ) : null}
          <div>
            {eyebrow ? <p className={`text-sm font-semibold uppercase tracking-wide ${theme.softText}`}>{eyebrow}</p> : null}
            <h1 className="mt-1 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">{title}</h1>
            <p className="mt-3 max-w-2xl text-lg text-ink-700">{intro}</p>
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}
