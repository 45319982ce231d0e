import { useEffect } from 'react';
import { useConfig } from './config-context';

/** Sets the document title (`{title} | {app name}`) and the meta description of a page. */
export function usePageMeta(title: string, description: string): void {
  const { appName } = useConfig();
  useEffect(() => {
    document.title = title === appName ? appName : `${title} | ${appName}`;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description, appName]);
}
