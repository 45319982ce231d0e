import { useEffect, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { ModalDialog } from '@/components/modal-dialog';
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
  const [typed, setTyped] = useState('');
  const matches = typed === name;

  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && !pending) onConfirm();
  };
  return (
    <ModalDialog
      open={open}
      title={`Delete ${name}?`}
      busy={pending}
      onClose={onCancel}
      description={
        <p>
          Its memberships and invitations go with it, and this cannot be undone. Type <strong className="break-words">{name}</strong> to confirm.
        </p>
      }
    >
      <form noValidate onSubmit={submit} className="mt-4 grid gap-4">
        <TextField data-autofocus label="Organization name" name="confirmName" autoComplete="off" spellCheck={false} value={typed} onChange={(event) => setTyped(event.target.value)} />
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
            Cancel
          </button>
          <button type="submit" disabled={!matches || pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
            {pending ? 'Deleting…' : 'Delete organization'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
