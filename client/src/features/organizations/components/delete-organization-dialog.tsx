import { useEffect, useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';

type DeleteOrganizationDialogProps = {
  open: boolean;
  name: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

/**
 * Deleting an organization takes its members and invitations with it, so the owner types its
 * name exactly before the button does anything (the "Confirm it's you" dialog's look).
 */
export function DeleteOrganizationDialog({ open, name, pending, onCancel, onConfirm }: DeleteOrganizationDialogProps) {
  const titleId = useId();
  const textId = useId();
  const [typed, setTyped] = useState('');
  const matches = typed === name;

  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !pending) onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, [open, pending, onCancel]);

  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);

  if (!open) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && !pending) onConfirm();
  };
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/60 p-4">
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} className="w-full max-w-md rounded-2xl bg-paper p-6 shadow-xl">
        <h2 id={titleId} className="break-words text-lg font-bold text-ink-900">
          Delete {name}?
        </h2>
        <p id={textId} className="mt-2 text-ink-700">
          Its memberships and invitations go with it, and this cannot be undone. Type <strong className="break-words">{name}</strong> to confirm.
        </p>
        <form noValidate onSubmit={submit} className="mt-4 grid gap-4">
          <TextField autoFocus label="Organization name" name="confirmName" autoComplete="off" spellCheck={false} value={typed} onChange={(event) => setTyped(event.target.value)} />
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
              Cancel
            </button>
            <button type="submit" disabled={!matches || pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
              {pending ? 'Deleting…' : 'Delete organization'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
