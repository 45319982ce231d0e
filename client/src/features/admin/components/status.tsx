import type { ReactNode } from 'react';

/** What a list shows for its filters ("Showing 3 users", "Loading…"), announced as it changes. */
export function ListStatus({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="text-sm text-ink-700">
      {children}
    </p>
  );
}

/**
 * A wide table that scrolls sideways on a phone. The scrolling box is a named region that
 * takes focus, so a keyboard can scroll it too.
 */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A focusable scroll container is what WCAG asks for here (axe scrollable-region-focusable).
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-xl ring-1 ring-ink-200 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-focus">
      {children}
    </div>
  );
}

export const thClass = 'whitespace-nowrap bg-ink-50 px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-ink-700';
export const tdClass = 'px-4 py-3 align-top text-sm text-ink-800';
