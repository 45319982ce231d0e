import { useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import type { CreateOAuthClientInput } from '../api/create-oauth-client';
import { clientFormErrors, redirectUrisFrom, type ClientFormValues } from '../utils/forms';
import { inputClass, labelClass } from './form-styles';

type ClientFormProps = {
  pending: boolean;
  /** The server's field errors (`name`, `redirectUris`). */
  errors: Record<string, string>;
  /** Resolves true once the client exists (the form then empties). */
  onCreate: (input: CreateOAuthClientInput) => Promise<boolean>;
};

type Option<T extends string> = { value: T; label: string; hint: string };

const CLIENT_TYPES: Option<ClientFormValues['type']>[] = [
  { value: 'confidential', label: 'Confidential', hint: 'a server that keeps a secret' },
  { value: 'public', label: 'Public', hint: 'a single-page or mobile app: no secret, PKCE alone' },
];

const SIGNATURES: Option<ClientFormValues['alg']>[] = [
  { value: 'RS256', label: 'RS256', hint: 'every OpenID Connect library verifies it' },
  { value: 'EdDSA', label: 'EdDSA', hint: "Ed25519, faster to sign; only if the application's library verifies it" },
];

type ChoiceProps<T extends string> = { legend: string; name: string; options: Option<T>[]; value: T; onChange: (value: T) => void };

/** One of a few options, as radio buttons under a legend. */
function Choice<T extends string>({ legend, name, options, value, onChange }: ChoiceProps<T>) {
  return (
    <fieldset>
      <legend className={labelClass}>{legend}</legend>
      <div className="grid gap-2">
        {options.map((option) => (
          <label key={option.value} className="flex items-start gap-2 text-ink-800">
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} className="mt-1 size-4" />
            <span>
              {option.label} <span className="text-sm text-ink-600">— {option.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const EMPTY: ClientFormValues = { name: '', redirectUris: '', firstParty: false, type: 'confidential', alg: 'RS256' };

/** Registers an application that signs people in through Talent Suite (an OpenID client). */
export function ClientForm({ pending, errors: serverErrors, onCreate }: ClientFormProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...serverErrors, ...errors };
  const set = <K extends keyof ClientFormValues>(field: K, value: ClientFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: '' }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = clientFormErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const created = await onCreate({
      name: values.name.trim(),
      redirectUris: redirectUrisFrom(values.redirectUris),
      firstParty: values.firstParty,
      public: values.type === 'public',
      idTokenSignedResponseAlg: values.alg,
    });
    if (created) setValues(EMPTY);
  };
  const urisError = shown.redirectUris || undefined;
  return (
    <form aria-label="Register an application" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <TextField label="Name" name="name" required autoComplete="off" value={values.name} error={shown.name || undefined} onChange={(event) => set('name', event.target.value)} />
      <div>
        <label htmlFor={`${id}-uris`} className={labelClass}>
          Redirect URIs
          <span className="ml-0.5 text-danger" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={`${id}-uris`}
          name="redirectUris"
          rows={3}
          spellCheck={false}
          aria-required="true"
          aria-invalid={urisError ? true : undefined}
          aria-describedby={`${id}-uris-hint${urisError ? ` ${id}-uris-error` : ''}`}
          value={values.redirectUris}
          onChange={(event) => set('redirectUris', event.target.value)}
          className={`${inputClass} font-mono text-sm ${urisError ? 'border-danger-line' : ''}`}
        />
        <p id={`${id}-uris-hint`} className="mt-1 text-sm text-ink-600">
          One per line, exactly as the application sends it.
        </p>
        {urisError ? (
          <p id={`${id}-uris-error`} className="mt-1 text-sm text-danger">
            {urisError}
          </p>
        ) : null}
      </div>
      <Choice legend="Client type" name="clientType" options={CLIENT_TYPES} value={values.type} onChange={(type) => set('type', type)} />
      <Choice legend="ID token signature" name="idTokenAlg" options={SIGNATURES} value={values.alg} onChange={(alg) => set('alg', alg)} />
      <label className="flex items-start gap-2 text-ink-800">
        <input type="checkbox" name="firstParty" checked={values.firstParty} onChange={(event) => set('firstParty', event.target.checked)} className="mt-1 size-4" />
        <span>
          First-party <span className="text-sm text-ink-600">— one of the platforms: people are not asked for consent</span>
        </span>
      </label>
      <div>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Creating…' : 'Create application'}
        </button>
      </div>
    </form>
  );
}
