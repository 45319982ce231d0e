import { useEffect, useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { reasonError } from '../utils/forms';
import { ModalDialog } from '@/components/modal-dialog';

type SuspendDialogProps = {
  open: boolean;
  name: string;
  pending: boolean;
  /** The server's word on the reason (400 `errors.reason`). */
  serverError?: string | undefined;
  /** The reason was edited: the server's word on the old one no longer applies (SPEC.md section 5). */
  onEdit: () => void;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
};

/** Suspending an account ends its sessions and blocks sign-in; the reason goes to the audit log. */
export function SuspendDialog({ open, name, pending, serverError, onEdit, onCancel, onConfirm }: SuspendDialogProps) {
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const shown = error ?? serverError;

  useEffect(() => {
    if (!open) {
      setReason('');
      setError(undefined);
    }
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const missing = reasonError(reason);
    setError(missing);
    if (!missing) onConfirm(reason.trim());
  };

  return (
    <ModalDialog
      open={open}
      title={`Suspend ${name}?`}
      busy={pending}
      onClose={onCancel}
      description="Every session of the account ends at once and signing in is refused until the account is restored."
    >
      <form noValidate onSubmit={submit} className="mt-4 grid gap-4">
        <div>
          <label htmlFor={fieldId} className="mb-1.5 block text-sm font-medium text-ink-800">
            Reason
            <span className="ml-0.5 text-danger" aria-hidden="true">
              *
            </span>
          </label>
          <textarea
            id={fieldId}
            name="reason"
            rows={3}
            data-autofocus
            value={reason}
            aria-required="true"
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${fieldId}-error` : `${fieldId}-hint`}
            onChange={(event) => {
              setReason(event.target.value);
              setError(undefined);
              onEdit();
            }}
            className={`block w-full rounded-lg border bg-paper px-3 py-2.5 text-ink-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-focus ${shown ? 'border-danger-line' : 'border-ink-300'}`}
          />
          {shown ? (
            <p id={`${fieldId}-error`} className="mt-1 text-sm text-danger">
              {shown}
            </p>
          ) : (
            <p id={`${fieldId}-hint`} className="mt-1 text-sm text-ink-600">
              Kept in the audit log with your name.
            </p>
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
            Cancel
          </button>
          <button type="submit" disabled={pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
            {pending ? 'Suspending…' : 'Suspend account'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
