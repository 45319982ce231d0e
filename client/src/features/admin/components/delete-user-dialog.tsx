import { useEffect, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { emailMatches } from '../utils/forms';
import { ModalDialog } from '@/components/modal-dialog';

type DeleteUserDialogProps = {
  open: boolean;
  email: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

/** Deleting an account cannot be undone, so the admin types its email before the button does anything. */
export function DeleteUserDialog({ open, email, pending, onCancel, onConfirm }: DeleteUserDialogProps) {
  const [typed, setTyped] = useState('');
  const matches = emailMatches(typed, email);

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
      role="alertdialog"
      title="Delete this account?"
      busy={pending}
      onClose={onCancel}
      description={
        <p>
          The account, its sessions and its sign-in methods are deleted, and this cannot be undone. Type <strong className="break-all">{email}</strong> to confirm.
        </p>
      }
    >
      <form noValidate onSubmit={submit} className="mt-4 grid gap-4">
        <TextField data-autofocus label="Email of the account" name="confirmEmail" type="email" autoComplete="off" spellCheck={false} value={typed} onChange={(event) => setTyped(event.target.value)} />
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
            Cancel
          </button>
          <button type="submit" disabled={!matches || pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
            {pending ? 'Deleting…' : 'Delete account'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
