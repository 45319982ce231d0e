import type { ReactNode } from 'react';
import { buttonClass } from '@/components/button-styles';
import { ModalDialog } from '@/components/modal-dialog';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

/** Asks before a change that cannot be taken back; Escape or Cancel closes it, focus starts on Cancel. */
export function ConfirmDialog({ open, title, children, confirmLabel, pendingLabel, pending, onCancel, onConfirm }: ConfirmDialogProps) {
  return (
    <ModalDialog open={open} role="alertdialog" title={title} description={children} busy={pending} onClose={onCancel}>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" data-autofocus onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
          Cancel
        </button>
        <button type="button" onClick={onConfirm} disabled={pending} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
          {pending ? pendingLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
