import { LoaderCircle } from 'lucide-react';
import { buttonClass } from '@/components/button-styles';
import { GoogleMark } from '@/components/provider-mark';

type GoogleButtonProps = { label: string; onClick: () => void; pending: boolean; disabled?: boolean };

export function GoogleButton({ label, onClick, pending, disabled = false }: GoogleButtonProps) {
  return (
    <button type="button" onClick={onClick} disabled={pending || disabled} className={`${buttonClass('secondary', 'md')} w-full`}>
      {pending ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : <GoogleMark />}
      {label}
    </button>
  );
}

/** The "or" rule between the email form and the Google (and other providers') buttons. */
export function OrDivider() {
  return (
    <div className="my-5 flex items-center gap-3 text-sm text-ink-600" aria-hidden="true">
      <span className="h-px flex-1 bg-ink-200" />
      or
      <span className="h-px flex-1 bg-ink-200" />
    </div>
  );
}
