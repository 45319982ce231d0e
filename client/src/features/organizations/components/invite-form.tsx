import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { MAX_INVITATIONS } from '../api/send-invitations';
import type { InviteRole } from '../api/types';
import { emailsFromCsv } from '../utils/csv-emails';
import { parseEmailList, uniqueEmails } from '../utils/email-list';
import { ROLE_LABELS } from '../utils/labels';

export type InviteErrors = { emails?: string; role?: string };

type InviteFormProps = {
  pending: boolean;
  /** The server's field errors of the last send. */
  errors: InviteErrors;
  /** The person changed `field`: its server error no longer applies (SPEC.md section 5). */
  onEdit: (field: keyof InviteErrors) => void;
  /** Resolves true when the invitations went out: the box then empties. */
  onSubmit: (input: { emails: string[]; role: InviteRole }) => Promise<boolean>;
  /** Owners and site admins may invite owners; org admins only members and admins. */
  canInviteOwners?: boolean;
};

const INVITE_ROLES: readonly InviteRole[] = ['member', 'admin'];
const OWNER_INVITE_ROLES: readonly InviteRole[] = ['member', 'admin', 'owner'];
const fieldClass = 'block w-full rounded-lg border bg-paper px-3 py-2.5 text-ink-900 focus-visible:outline-3 focus-visible:outline-offset-1';

/** Reads a chosen file as text (Blob.text where the browser has it). */
function readText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/** Where the CSV's addresses came from, in words. */
function fileSummary(fileName: string, added: number, ignored: number): string {
  const addresses = `${added} ${added === 1 ? 'address' : 'addresses'}`;
  const left = ignored > 0 ? ` (${ignored} ${ignored === 1 ? 'entry' : 'entries'} without an email address left out)` : '';
  return `Added ${addresses} from ${fileName}${left}.`;
}

/**
 * Addresses typed (separated by commas, spaces or new lines) or taken from a CSV file's email
 * column, and the role they are invited to.
 */
export function InviteForm({ pending, errors, onEdit, onSubmit, canInviteOwners = false }: InviteFormProps) {
  const textId = useId();
  const fileId = useId();
  const roleId = useId();
  const [text, setText] = useState('');
  const [role, setRole] = useState<InviteRole>('member');
  const [error, setError] = useState<string | undefined>();
  const [fileNote, setFileNote] = useState<{ ok: boolean; text: string } | null>(null);
  const emailsError = error ?? errors.emails;

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    let content: string;
    try {
      content = await readText(file);
    } catch {
      setFileNote({ ok: false, text: `${file.name} could not be read.` });
      return;
    }
    const { emails, ignored } = emailsFromCsv(content);
    if (emails.length === 0) {
      setFileNote({ ok: false, text: `No email addresses found in ${file.name}.` });
      return;
    }
    const typed = parseEmailList(text);
    const merged = uniqueEmails([...typed, ...emails]);
    setText(merged.join('\n'));
    setError(undefined);
    onEdit('emails');
    setFileNote({ ok: true, text: fileSummary(file.name, merged.length - typed.length, ignored) });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const emails = parseEmailList(text);
    if (emails.length === 0) {
      setError('Add at least one email address');
      return;
    }
    if (emails.length > MAX_INVITATIONS) {
      setError(`At most ${MAX_INVITATIONS} email addresses per invitation`);
      return;
    }
    setError(undefined);
    if (await onSubmit({ emails, role })) {
      setText('');
      setFileNote(null);
    }
  };

  return (
    <form method="post" noValidate aria-label="Invite people" onSubmit={(event) => void submit(event)} className="grid gap-4">
      <div>
        <label htmlFor={textId} className="mb-1.5 block text-sm font-medium text-ink-800">
          Email addresses
        </label>
        <textarea
          id={textId}
          name="emails"
          rows={4}
          value={text}
          spellCheck={false}
          aria-invalid={emailsError ? true : undefined}
          aria-describedby={`${textId}-hint${emailsError ? ` ${textId}-error` : ''}`}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
            onEdit('emails');
          }}
          className={`${fieldClass} ${emailsError ? 'border-danger-line focus-visible:outline-danger-line' : 'border-ink-300 focus-visible:outline-focus'}`}
        />
        <p id={`${textId}-hint`} className="mt-1 text-sm text-ink-600">
          Separate addresses with commas, spaces or new lines.
        </p>
        {emailsError ? (
          <p id={`${textId}-error`} className="mt-1 text-sm text-danger">
            {emailsError}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor={fileId} className="mb-1.5 block text-sm font-medium text-ink-800">
          Or add addresses from a CSV file
        </label>
        <input
          id={fileId}
          name="csv"
          type="file"
          accept=".csv,text/csv"
          aria-describedby={`${fileId}-note`}
          onChange={(event) => void chooseFile(event)}
          className="block w-full max-w-full text-sm text-ink-800 file:mr-3 file:rounded-lg file:border file:border-ink-300 file:bg-paper file:px-3 file:py-2 file:text-sm file:font-semibold file:text-ink-800 hover:file:bg-ink-50"
        />
        <p id={`${fileId}-note`} role="status" className={`mt-1 text-sm ${fileNote && !fileNote.ok ? 'text-danger' : 'text-ink-600'}`}>
          {fileNote?.text ?? 'The first column holding email addresses is used.'}
        </p>
      </div>
      <div className="sm:max-w-xs">
        <label htmlFor={roleId} className="mb-1.5 block text-sm font-medium text-ink-800">
          Invite as
        </label>
        <select
          id={roleId}
          name="role"
          value={role}
          aria-invalid={errors.role ? true : undefined}
          aria-describedby={errors.role ? `${roleId}-error` : undefined}
          onChange={(event) => {
            setRole(event.target.value as InviteRole);
            onEdit('role');
          }}
          className={`${fieldClass} ${errors.role ? 'border-danger-line' : 'border-ink-300'} focus-visible:outline-focus`}
        >
          {(canInviteOwners ? OWNER_INVITE_ROLES : INVITE_ROLES).map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </select>
        {errors.role ? (
          <p id={`${roleId}-error`} className="mt-1 text-sm text-danger">
            {errors.role}
          </p>
        ) : null}
      </div>
      <div>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Sending…' : 'Send invitations'}
        </button>
      </div>
    </form>
  );
}
