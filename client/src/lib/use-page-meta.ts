import { createContext, use, useEffect } from 'react';
import { useConfig } from './config-context';

/** What the build's prerender reads back: the title and description a page asked for. */
export type PageMeta = { title: string; description: string };
export const PageMetaCollector = createContext<PageMeta | null>(null);

/** Sets the document title (`{title} | {app name}`) and the meta description of a page. */
export function usePageMeta(title: string, description: string): void {
  const { appName } = useConfig();
  const fullTitle = title === appName ? appName : `${title} | ${appName}`;
  const collector = use(PageMetaCollector);
  if (collector) {
    collector.title = fullTitle;
    collector.description = description;
  }
  useEffect(() => {
    document.title = fullTitle;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [fullTitle, description]);
}
