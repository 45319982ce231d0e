import { KeyRound } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import type { Passkey } from '../api/passkeys';
import type { RenameOutcome } from '../hooks/use-passkeys';
import { passkeyNameError } from '../utils/passkey-name';

type PasskeyItemProps = {
  passkey: Passkey;
  busy: boolean;
  onRename: (name: string) => Promise<RenameOutcome>;
  onRemove: () => void;
};

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** One passkey: its name and dates, renamed in place or removed (the section asks first). */
export function PasskeyItem({ passkey, busy, onRename, onRemove }: PasskeyItemProps) {
  const [editing, setEditing] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // Leaving the rename form puts focus back on its Rename button, not on the page's start.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    renameButton.current?.focus();
  }, [editing]);

  const close = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  return (
    <li data-testid="passkey" className="flex flex-wrap items-center gap-3 px-4 py-3">
      <KeyRound aria-hidden="true" className="size-5 text-ink-500" />
      {editing ? (
        <RenameForm passkey={passkey} pending={busy} onSave={onRename} onDone={close} />
      ) : (
        <>
          <div className="min-w-0 flex-1">
            <p className="font-medium text-ink-900 [overflow-wrap:anywhere]">{passkey.name}</p>
            <p className="text-sm text-ink-700">
              Added {day(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${day(passkey.lastUsedAt)}` : 'Never used'}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button ref={renameButton} type="button" disabled={busy} onClick={() => setEditing(true)} aria-label={`Rename ${passkey.name}`} className={buttonClass('secondary', 'sm')}>
              Rename
            </button>
            <button type="button" disabled={busy} onClick={onRemove} aria-label={`Remove ${passkey.name}`} className={buttonClass('secondary', 'sm')}>
              Remove
            </button>
          </div>
        </>
      )}
    </li>
  );
}

type RenameFormProps = { passkey: Passkey; pending: boolean; onSave: (name: string) => Promise<RenameOutcome>; onDone: () => void };

function RenameForm({ passkey, pending, onSave, onDone }: RenameFormProps) {
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = passkeyNameError(name);
    if (problem) {
      setError(problem);
      return;
    }
    if (name.trim() === passkey.name) {
      onDone();
      return;
    }
    const outcome = await onSave(name);
    if (outcome.ok) onDone();
    else if (outcome.fieldError) setError(outcome.fieldError);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !pending) {
      event.preventDefault();
      onDone();
    }
  };

  return (
    <form
      method="post"
      noValidate
      aria-label={`Rename ${passkey.name}`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={onKeyDown}
      className="flex min-w-0 flex-1 flex-wrap items-start gap-3"
    >
      <TextField
        autoFocus
        label="Passkey name"
        name="passkeyName"
        autoComplete="off"
        required
        value={name}
        error={error}
        className="min-w-0 flex-1 basis-56"
        onChange={(event) => {
          setName(event.target.value);
          setError(undefined);
        }}
      />
      {/* Level with the input: the label above it is one line of text-sm plus its margin. */}
      <div className="flex gap-2 sm:mt-7">
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" disabled={pending} onClick={onDone} className={buttonClass('secondary', 'md')}>
          Cancel
        </button>
      </div>
    </form>
  );
}
