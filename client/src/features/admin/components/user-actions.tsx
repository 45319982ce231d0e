import { useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import type { AdminUser, UserRole } from '../api/types';
import { ROLE_LABELS, USER_ROLES } from '../utils/labels';
import { labelClass, selectClass } from './form-styles';

/** Which call is on its way; every control waits for it. */
export type UserAction = 'suspend' | 'restore' | 'sign-out' | 'role' | 'resend' | 'delete' | 'session';

type UserActionsProps = {
  user: AdminUser;
  pending: UserAction | null;
  onSuspend: () => void;
  onRestore: () => void;
  onSignOutEverywhere: () => void;
  onResendVerification: () => void;
  onDelete: () => void;
};

const dangerClass = `${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`;

/** What an admin can do to another account. Suspend and Restore share one button, so focus stays on it when one becomes the other. */
export function UserActions({ user, pending, onSuspend, onRestore, onSignOutEverywhere, onResendVerification, onDelete }: UserActionsProps) {
  const suspended = user.status === 'suspended';
  const busy = pending !== null;
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" disabled={busy} onClick={suspended ? onRestore : onSuspend} className={buttonClass('secondary', 'md')}>
        {suspended ? (pending === 'restore' ? 'Restoring…' : 'Restore') : 'Suspend'}
      </button>
      <button type="button" disabled={busy} onClick={onSignOutEverywhere} className={buttonClass('secondary', 'md')}>
        {pending === 'sign-out' ? 'Signing out…' : 'Sign out everywhere'}
      </button>
      {user.emailVerified ? null : (
        <button type="button" disabled={busy} onClick={onResendVerification} className={buttonClass('secondary', 'md')}>
          {pending === 'resend' ? 'Sending…' : 'Resend verification'}
        </button>
      )}
      <button type="button" disabled={busy} onClick={onDelete} className={dangerClass}>
        Delete
      </button>
    </div>
  );
}

type ChangeRoleFormProps = {
  role: UserRole;
  pending: boolean;
  error?: string | undefined;
  /** Another role was picked: the server's word on the last one no longer applies (SPEC.md section 5). */
  onEdit: () => void;
  onSave: (role: UserRole) => void;
};

/** "Change role": a select and Save, which waits until another role is picked. */
export function ChangeRoleForm({ role, pending, error, onEdit, onSave }: ChangeRoleFormProps) {
  const id = useId();
  const [chosen, setChosen] = useState<UserRole>(role);
  // A role saved elsewhere (or by this form) becomes the starting point again.
  const [shownFor, setShownFor] = useState(role);
  if (shownFor !== role) {
    setShownFor(role);
    setChosen(role);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen !== role && !pending) onSave(chosen);
  };
  return (
    <form aria-label="Change role" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="min-w-40">
        <label htmlFor={id} className={labelClass}>
          Role
        </label>
        <select
          id={id}
          name="role"
          value={chosen}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setChosen(event.target.value as UserRole);
            onEdit();
          }}
          className={selectClass}
        >
          {USER_ROLES.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={pending || chosen === role} className={buttonClass('primary', 'md')}>
        {pending ? 'Saving…' : 'Save role'}
      </button>
      {error ? (
        <p id={`${id}-error`} className="basis-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
