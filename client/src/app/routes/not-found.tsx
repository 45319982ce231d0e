import { House, SearchX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/lib/use-page-meta';

export function NotFoundPage() {
  usePageMeta('Page Not Found', 'The page you are looking for does not exist or has moved.');
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <span className="flex size-16 items-center justify-center rounded-full bg-accent-soft">
        <SearchX aria-hidden="true" className="size-8 text-accent" />
      </span>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-accent">Error 404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">Page not found</h1>
      <p className="mt-4 text-lg text-ink-600">
        Sorry, we could not find the page you are looking for. It may have moved, or the address may be mistyped.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to={paths.home.getHref()} className={buttonClass('primary', 'lg')}>
          <House aria-hidden="true" className="size-5" />
          Back to Home
        </Link>
        <Link to={paths.contact.getHref()} className={buttonClass('secondary', 'lg')}>
          Contact Us
        </Link>
      </div>
    </div>
  );
}
