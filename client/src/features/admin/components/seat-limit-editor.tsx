import { useId, useRef, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { parseSeatLimit } from '../utils/forms';
import { inputClass } from './form-styles';

type SeatLimitEditorProps = {
  organizationName: string;
  seatLimit: number | null;
  /** Resolves to the server's field error, or undefined once saved. */
  onSave: (seatLimit: number | null) => Promise<string | undefined>;
};

const limitText = (seatLimit: number | null) => (seatLimit === null ? 'No limit' : String(seatLimit));

/** The seat limit as text with "Edit"; editing it in place: a number, or blank for no limit. */
export function SeatLimitEditor({ organizationName, seatLimit, onSave }: SeatLimitEditorProps) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  const close = () => {
    setEditing(false);
    setError(undefined);
    // Back to the button that opened the editor, drawn again after this render.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseSeatLimit(value);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setSaving(true);
    const failure = await onSave(parsed.value);
    setSaving(false);
    if (failure === undefined) close();
    else setError(failure);
  };

  if (!editing) {
    return (
      <div className="flex items-center gap-3">
        <span className="whitespace-nowrap">{limitText(seatLimit)}</span>
        <button
          ref={editButton}
          type="button"
          onClick={() => {
            setValue(seatLimit === null ? '' : String(seatLimit));
            setEditing(true);
          }}
          aria-label={`Edit seat limit of ${organizationName}`}
          className={buttonClass('ghost', 'sm')}
        >
          Edit
        </button>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex min-w-64 flex-wrap items-start gap-2">
      <div className="w-28">
        <label htmlFor={id} className="sr-only">
          Seat limit of {organizationName}
        </label>
        <input
          id={id}
          // Focus goes straight to the number when the editor opens.
          autoFocus
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder="No limit"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(event) => {
            setValue(event.target.value);
            setError(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !saving) close();
          }}
          className={`${inputClass} py-2 ${error ? 'border-danger-line' : ''}`}
        />
      </div>
      <button type="submit" disabled={saving} className={buttonClass('primary', 'sm')}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <button type="button" disabled={saving} onClick={close} className={buttonClass('secondary', 'sm')}>
        Cancel
      </button>
      {error ? (
        <p id={`${id}-error`} className="basis-full text-sm text-danger">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="basis-full text-xs text-ink-600">
          Blank for no limit.
        </p>
      )}
    </form>
  );
}
