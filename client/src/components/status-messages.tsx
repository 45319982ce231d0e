import { LoaderCircle } from 'lucide-react';

/** A spinner and what is loading, read out politely. */
export function LoadingStatus({ children }: { children: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-ink-700">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
      {children}
    </p>
  );
}

/** A failure to load or to act, announced at once. */
export function ErrorMessage({ children }: { children: string }) {
  return (
    <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-danger-strong">
      {children}
    </p>
  );
}
