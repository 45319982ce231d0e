import { useEffect, useId, useRef } from 'react';
import { buttonClass } from '@/components/button-styles';

type DeleteAccountDialogProps = { open: boolean; pending: boolean; onCancel: () => void; onConfirm: () => void };

/** Asks before the account is deleted; Escape or Cancel closes it, focus starts on Cancel. */
export function DeleteAccountDialog({ open, pending, onCancel, onConfirm }: DeleteAccountDialogProps) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !pending) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, [open, pending, onCancel]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/60 p-4">
      <div role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} className="w-full max-w-md rounded-2xl bg-paper p-6 shadow-xl">
        <h2 id={titleId} className="text-lg font-bold text-ink-900">
          Delete your account?
        </h2>
        <p id={textId} className="mt-2 text-ink-700">
          This permanently deletes your account, signs you out everywhere and cannot be undone.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button ref={cancelRef} type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
            Cancel
          </button>
          <button type="button" onClick={onConfirm} disabled={pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
            {pending ? 'Deleting...' : 'Delete account'}
          </button>
        </div>
      </div>
    </div>
  );
}
