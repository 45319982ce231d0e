import type { Role } from '../api/register';

export const ROLE_OPTIONS: readonly { value: Role; label: string }[] = [
  { value: 'career', label: 'Student' },
  { value: 'campus', label: 'Institute' },
  { value: 'hire', label: 'Hire' },
];

/** SPEC.md section 2: Student (career), Institute (campus), Hire (hire), as a radio group. */
export function RoleSelector({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-ink-800">I am registering as</legend>
      <div className="grid grid-cols-3 gap-2">
        {ROLE_OPTIONS.map((option) => (
          <label
            key={option.value}
            className={`flex cursor-pointer items-center justify-center rounded-lg border px-3 py-2.5 text-sm font-semibold transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-focus ${
              value === option.value ? 'border-accent bg-accent-soft text-accent-strong' : 'border-ink-300 bg-paper text-ink-700 hover:border-ink-400'
            }`}
          >
            <input
              type="radio"
              name="role"
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
