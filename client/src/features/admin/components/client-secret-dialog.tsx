import { useState } from 'react';
import { buttonClass } from '@/components/button-styles';
import type { OAuthClientSecret } from '../api/create-oauth-client';
import { ModalDialog } from '@/components/modal-dialog';

type ClientSecretDialogProps = {
  /** The client with its secret, or null when closed. */
  shown: OAuthClientSecret | null;
  title: string;
  onClose: () => void;
};

function CopyableValue({ label, value, focusFirst = false }: { label: string; value: string; focusFirst?: boolean }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div>
      <p className="text-sm font-medium text-ink-800">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code data-testid={`${label.toLowerCase().replace(/\s+/g, '-')}`} className="min-w-0 flex-1 select-all break-all rounded-lg bg-ink-100 px-3 py-2 font-mono text-sm text-ink-900">
          {value}
        </code>
        <button type="button" data-autofocus={focusFirst || undefined} onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`} className={buttonClass('secondary', 'sm')}>
          Copy
        </button>
      </div>
      <p role="status" className="mt-1 min-h-5 text-sm text-ink-700">
        {copied === 'yes' ? `${label} copied.` : copied === 'failed' ? 'Copying is not allowed here: select the text and copy it.' : ''}
      </p>
    </div>
  );
}

/** The client id and, this once, its secret; closing the dialog is the last time the secret is seen. */
export function ClientSecretDialog({ shown, title, onClose }: ClientSecretDialogProps) {
  return (
    <ModalDialog
      open={shown !== null}
      title={title}
      busy={false}
      onClose={onClose}
      description={
        shown?.clientSecret
          ? 'Store the secret in the application’s settings now: it is shown only this once, and only a new secret can replace it.'
          : 'A public client has no secret: it proves itself with PKCE.'
      }
    >
      {shown ? (
        <div className="mt-4 grid gap-3">
          <CopyableValue label="Client ID" value={shown.client.clientId} />
          {shown.clientSecret ? <CopyableValue label="Client secret" value={shown.clientSecret} focusFirst /> : null}
          <div className="flex justify-end">
            <button type="button" onClick={onClose} className={buttonClass('primary', 'md')}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </ModalDialog>
  );
}
