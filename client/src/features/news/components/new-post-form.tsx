import { useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import type { NewsInput } from '../api/manage-news';

type NewPostFormProps = {
  pending: boolean;
  /** The server's field errors of the last save. */
  errors: Partial<Record<string, string>>;
  /** The person changed `field`: its server error no longer applies (SPEC.md section 5). */
  onEdit: (field: string) => void;
  onSubmit: (input: NewsInput) => Promise<boolean>;
  /** Editing an existing post: its values, and a way back. */
  initial?: NewsInput & { body: string };
  onCancel?: () => void;
};

const EMPTY = { title: '', summary: '', body: '', imageUrl: '', published: true };

/** An admin's post, new or edited: title, summary, body, image URL and whether it is published. */
export function NewPostForm({ pending, errors, onEdit, onSubmit, initial, onCancel }: NewPostFormProps) {
  const [values, setValues] = useState(initial ? { ...initial, imageUrl: initial.imageUrl ?? '' } : EMPTY);
  const bodyId = useId();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const set = (field: keyof typeof EMPTY) => (value: string | boolean) => {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit(field);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await onSubmit({ ...values, imageUrl: values.imageUrl.trim() || null });
    if (!saved) focusFirstInvalid();
    else if (!initial) setValues(EMPTY);
  };
  return (
    <form ref={formRef} method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <TextField label="Title" name="title" required value={values.title} error={errors.title} onChange={(e) => set('title')(e.target.value)} />
      <TextField label="Summary" name="summary" required value={values.summary} error={errors.summary} onChange={(e) => set('summary')(e.target.value)} />
      <div>
        <label htmlFor={bodyId} className="mb-1.5 block text-sm font-medium text-ink-800">
          Body
          <span className="ml-0.5 text-danger" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={bodyId}
          name="body"
          rows={6}
          value={values.body}
          aria-required="true"
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${bodyId}-error` : undefined}
          onChange={(e) => set('body')(e.target.value)}
          className={`block w-full rounded-lg border bg-paper px-3 py-2.5 text-ink-900 ${errors.body ? 'border-danger-line' : 'border-ink-300'}`}
        />
        {errors.body ? (
          <p id={`${bodyId}-error`} className="mt-1 text-sm text-danger">
            {errors.body}
          </p>
        ) : null}
      </div>
      <TextField label="Image URL" name="imageUrl" type="url" value={values.imageUrl} error={errors.imageUrl} onChange={(e) => set('imageUrl')(e.target.value)} />
      <label className="flex items-center gap-2 text-ink-800">
        <input type="checkbox" checked={values.published} onChange={(e) => set('published')(e.target.checked)} className="size-4" />
        Published
      </label>
      <div>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Saving…' : initial ? 'Save changes' : 'Save post'}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel} className={`${buttonClass('ghost', 'md')} ml-2`}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
