import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/text-field';

type DeleteAccountFormProps = { email: string; pending: boolean; onDelete: () => void };

/** Deleting needs the account's email typed out, so it cannot happen by a stray click. */
export function DeleteAccountForm({ email, pending, onDelete }: DeleteAccountFormProps) {
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) onDelete();
  };
  return (
    <form method="post" noValidate onSubmit={submit} className="grid gap-4 sm:max-w-md">
      <p className="text-ink-700">
        This deletes your account, signs you out everywhere and cannot be undone. Type <strong className="break-all">{email}</strong> to confirm.
      </p>
      <TextField label="Your email" name="confirmEmail" type="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <div>
        <button
          type="submit"
          disabled={!matches || pending}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {pending ? 'Deleting…' : 'Delete my account'}
        </button>
      </div>
    </form>
  );
}
