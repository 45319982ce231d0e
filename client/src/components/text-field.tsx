import { useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';

type TextFieldProps = Omit<ComponentPropsWithoutRef<'input'>, 'required'> & {
  label: string;
  /** Error text shown beneath the input; a non-empty value also turns the border red. */
  error?: string | undefined;
  /** Shows a required marker next to the label. */
  required?: boolean;
  hint?: string;
  labelClassName?: string;
  /** A control drawn inside the right end of the input (e.g. a show/hide password toggle). */
  trailing?: ReactNode;
};

/** The shared text field (SPEC.md section 5): label, optional required marker, error line. */
export function TextField({ label, error, required = false, hint, id, className = '', labelClassName = '', trailing, ...inputProps }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const hasError = Boolean(error);
  const describedBy = [hint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={className}>
      <label htmlFor={inputId} className={`mb-1.5 block text-sm font-medium text-ink-800 ${labelClassName}`}>
        {label}
        {required ? (
          <span className="ml-0.5 text-danger" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      <div className="relative">
      <input
        id={inputId}
        aria-required={required || undefined}
        aria-invalid={hasError || undefined}
        aria-describedby={describedBy}
        className={`block w-full rounded-lg border bg-paper px-3 py-2.5 ${trailing ? 'pr-11' : ''} text-ink-900 placeholder:text-ink-500 focus-visible:outline-3 focus-visible:outline-offset-1 ${
          hasError ? 'border-danger-line focus-visible:outline-danger-line' : 'border-ink-300 focus-visible:outline-focus'
        }`}
        {...inputProps}
      />
      {trailing ? <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div> : null}
      </div>
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-ink-600">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
