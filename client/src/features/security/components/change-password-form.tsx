import { useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import type { ChangePasswordErrors, ChangePasswordField, ChangePasswordValues } from '../utils/change-password-form';

type ChangePasswordFormProps = {
  /** An account made with Google has no password to confirm. */
  needsCurrent: boolean;
  pending: boolean;
  errors: ChangePasswordErrors;
  onEdit: (field: ChangePasswordField) => void;
  onSubmit: (values: ChangePasswordValues) => void;
};

const EMPTY: ChangePasswordValues = { currentPassword: '', password: '', confirmPassword: '' };

/** Current, new and confirmed password; field errors clear as the field is edited. */
export function ChangePasswordForm({ needsCurrent, pending, errors, onEdit, onSubmit }: ChangePasswordFormProps) {
  const [values, setValues] = useState(EMPTY);
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const change = (field: ChangePasswordField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit(field);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
    // The check runs in onSubmit: once its errors are shown, the first of them has the focus.
    focusFirstInvalid();
  };
  return (
    <form ref={formRef} method="post" noValidate onSubmit={submit} className="grid gap-4 sm:max-w-md">
      {needsCurrent ? (
        <TextField label="Current password" name="currentPassword" type="password" autoComplete="current-password" hint="Leave it empty if you signed up with Google and have not set a password yet." value={values.currentPassword} error={errors.currentPassword} onChange={(e) => change('currentPassword')(e.target.value)} />
      ) : null}
      <TextField label="New password" name="password" type="password" autoComplete="new-password" required value={values.password} error={errors.password} onChange={(e) => change('password')(e.target.value)} />
      <TextField label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" required value={values.confirmPassword} error={errors.confirmPassword} onChange={(e) => change('confirmPassword')(e.target.value)} />
      <div>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
