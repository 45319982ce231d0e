import { useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { NO_AUDIT_FILTERS, type AuditFilters } from '../utils/query';
import { inputClass, labelClass } from './form-styles';

type AuditFiltersFormProps = { filters: AuditFilters; onApply: (filters: AuditFilters) => void };

const FIELDS: readonly { name: keyof AuditFilters; label: string; type: 'text' | 'datetime-local'; placeholder?: string }[] = [
  { name: 'userId', label: 'User id', type: 'text', placeholder: 'A user’s id' },
  { name: 'kind', label: 'Kind', type: 'text', placeholder: 'e.g. sign_in_failed' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
];

/** The audit log's filters; they apply on "Apply filters" (times are in this browser's time zone). */
export function AuditFiltersForm({ filters, onApply }: AuditFiltersFormProps) {
  const id = useId();
  const [values, setValues] = useState(filters);
  // Filters changed from outside (a link from a user's page) refill the form.
  const filtersKey = JSON.stringify(filters);
  const [shownFor, setShownFor] = useState(filtersKey);
  if (shownFor !== filtersKey) {
    setShownFor(filtersKey);
    setValues(filters);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(values);
  };
  return (
    <form role="search" aria-label="Audit log" onSubmit={submit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {FIELDS.map((field) => (
        <div key={field.name}>
          <label htmlFor={`${id}-${field.name}`} className={labelClass}>
            {field.label}
          </label>
          <input
            id={`${id}-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete="off"
            spellCheck={false}
            placeholder={field.placeholder}
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
            className={inputClass}
          />
        </div>
      ))}
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
        <button type="submit" className={buttonClass('primary', 'md')}>
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setValues(NO_AUDIT_FILTERS);
            onApply(NO_AUDIT_FILTERS);
          }}
          className={buttonClass('secondary', 'md')}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
