import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClass } from '@/components/button-styles';

type SubmitButtonProps = {
  pending: boolean;
  children: ReactNode;
  disabled?: boolean;
  /** The id of what the button acts on, read with its name (the account a link opens, say). */
  describedBy?: string;
};

export function SubmitButton({ pending, children, disabled = false, describedBy }: SubmitButtonProps) {
  return (
    <button type="submit" disabled={pending || disabled} aria-busy={pending || undefined} aria-describedby={describedBy} className={`${buttonClass('primary', 'lg')} w-full`}>
      {pending ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : null}
      {children}
    </button>
  );
}
