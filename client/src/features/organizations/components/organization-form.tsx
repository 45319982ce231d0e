import { useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import type { OrganizationErrors, OrganizationField, OrganizationValues } from '../utils/organization-form';

type OrganizationFormProps = {
  /** The form's accessible name. */
  label: string;
  initial?: OrganizationValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  errors: OrganizationErrors;
  onEdit: (field: OrganizationField) => void;
  /** Resolves true when saved: a new organization's form then empties. */
  onSubmit: (values: OrganizationValues) => Promise<boolean>;
};

const EMPTY: OrganizationValues = { name: '', slug: '' };

/** Name and slug, for a new organization or a renamed one; field errors clear as they are edited. */
export function OrganizationForm({ label, initial, submitLabel, pendingLabel, pending, errors, onEdit, onSubmit }: OrganizationFormProps) {
  const [values, setValues] = useState(initial ?? EMPTY);
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const change = (field: OrganizationField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit(field);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await onSubmit(values);
    if (!saved) focusFirstInvalid();
    else if (!initial) setValues(EMPTY);
  };
  return (
    <form ref={formRef} method="post" noValidate aria-label={label} onSubmit={(event) => void submit(event)} className="grid gap-4 sm:max-w-md">
      <TextField label="Organization name" name="name" autoComplete="organization" required maxLength={100} value={values.name} error={errors.name} onChange={(e) => change('name', e.target.value)} />
      <TextField
        label="Slug"
        name="slug"
        autoComplete="off"
        spellCheck={false}
        hint={initial ? 'Lowercase letters, digits and hyphens, 3 to 40 of them.' : 'Optional: lowercase letters, digits and hyphens, 3 to 40 of them. Left empty, one is made from the name.'}
        value={values.slug}
        error={errors.slug}
        onChange={(e) => change('slug', e.target.value)}
      />
      <div>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
