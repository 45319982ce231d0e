import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClass } from '@/components/button-styles';

export function SubmitButton({ pending, children, disabled = false }: { pending: boolean; children: ReactNode; disabled?: boolean }) {
  return (
    <button type="submit" disabled={pending || disabled} aria-busy={pending || undefined} className={`${buttonClass('primary', 'lg')} w-full`}>
      {pending ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
      {children}
    </button>
  );
}
