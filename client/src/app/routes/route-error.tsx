import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Last-resort screen when a route throws (for example a lazy chunk that failed to load). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'An unexpected error occurred.';
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold text-ink-900">Something went wrong</h1>
      <p className="mt-4 text-ink-600">{detail}</p>
      <a href="/" className="mt-8 inline-block rounded-lg bg-indigo-700 px-5 py-3 font-semibold text-white hover:bg-indigo-800">
        Reload the home page
      </a>
    </main>
  );
}
