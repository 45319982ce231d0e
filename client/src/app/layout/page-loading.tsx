import { LoaderCircle } from 'lucide-react';

export function PageLoading() {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-2 text-ink-600">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
      Loading
    </div>
  );
}
