import { useState, type FormEvent } from 'react';
import { buttonClass } from '@/components/button-styles';
import { TextField } from '@/components/text-field';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import type { ProfileUser } from '../api/profile-user';
import { ADDRESS_KEYS, SOCIAL_KEYS, validateProfile, type ProfileErrorKey, type ProfileFormValues, type TextKey } from '../utils/profile-form';
import { ADDRESS_LABELS, SOCIAL_LABELS } from './profile-details';
import { SectionCard } from '@/components/section-card';

type ProfileEditFormProps = {
  user: ProfileUser;
  initialValues: ProfileFormValues;
  pending: boolean;
  /** Resolves with the server's field errors, or an empty object when saved. */
  onSave: (values: ProfileFormValues) => Promise<Partial<Record<ProfileErrorKey, string>>>;
  onCancel: () => void;
};

type Errors = Partial<Record<ProfileErrorKey, string>>;

/** Personal Information, Social Profiles, Address and Preferences as one form. */
export function ProfileEditForm({ user, initialValues, pending, onSave, onCancel }: ProfileEditFormProps) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<Errors>({});
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const clearError = (key: ProfileErrorKey) =>
    setErrors((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });

  const field = (key: TextKey, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={label}
      name={key}
      value={values.text[key]}
      error={errors[key]}
      onChange={(event) => {
        const { value } = event.target;
        setValues((current) => ({ ...current, text: { ...current.text, [key]: value } }));
        clearError(key);
      }}
      {...extra}
    />
  );

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateProfile(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid();
      return;
    }
    setErrors(await onSave(values));
  };

  const toggle = (key: keyof ProfileFormValues['notifications'], label: string) => (
    <label className="flex items-center gap-3 text-ink-800">
      <input
        type="checkbox"
        name={`preferences.notifications.${key}`}
        checked={values.notifications[key]}
        onChange={(event) => {
          const { checked } = event.target;
          setValues((current) => ({ ...current, notifications: { ...current.notifications, [key]: checked } }));
        }}
        className="size-4 accent-indigo-700"
      />
      {label}
    </label>
  );

  return (
    <form ref={formRef} method="post" noValidate onSubmit={onSubmit} aria-label="Edit profile" className="space-y-6">
      <SectionCard title="Personal Information">
        <div className="grid gap-4 sm:grid-cols-2">
          {field('name', 'Name', { required: true, autoComplete: 'name' })}
          <TextField label="Email" name="email" value={user.email} readOnly hint="Your email cannot be changed here." />
          <div className="grid grid-cols-[7rem_1fr] gap-3">
            {field('countryCode', 'Country Code', { inputMode: 'tel', autoComplete: 'tel-country-code' })}
            {field('phone', 'Phone', { type: 'tel', inputMode: 'numeric', autoComplete: 'tel-national' })}
          </div>
          {field('born', 'Date of Birth', { type: 'date', autoComplete: 'bday' })}
          {field('website', 'Website', { type: 'url', placeholder: 'https://example.com', autoComplete: 'url', className: 'sm:col-span-2' })}
          <div className="sm:col-span-2">
            <label htmlFor="profile-bio" className="mb-1.5 block text-sm font-medium text-ink-800">
              Bio
            </label>
            <textarea
              id="profile-bio"
              name="bio"
              rows={4}
              value={values.text.bio}
              aria-invalid={errors.bio ? true : undefined}
              aria-describedby={errors.bio ? 'profile-bio-error' : undefined}
              onChange={(event) => {
                const { value } = event.target;
                setValues((current) => ({ ...current, text: { ...current.text, bio: value } }));
                clearError('bio');
              }}
              className={`block w-full rounded-lg border bg-paper px-3 py-2.5 text-ink-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-focus ${errors.bio ? 'border-danger-line' : 'border-ink-300'}`}
            />
            {errors.bio ? (
              <p id="profile-bio-error" className="mt-1 text-sm text-danger">
                {errors.bio}
              </p>
            ) : null}
          </div>
        </div>
      </SectionCard>
      <SectionCard title="Social Profiles">
        <div className="grid gap-4 sm:grid-cols-2">{SOCIAL_KEYS.map((key) => <div key={key}>{field(`social.${key}`, SOCIAL_LABELS[key])}</div>)}</div>
      </SectionCard>
      <SectionCard title="Address">
        <div className="grid gap-4 sm:grid-cols-2">{ADDRESS_KEYS.map((key) => <div key={key}>{field(`address.${key}`, ADDRESS_LABELS[key])}</div>)}</div>
      </SectionCard>
      <SectionCard title="Preferences">
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-medium text-ink-800">Notifications</legend>
          {toggle('email', 'Email notifications')}
          {toggle('sms', 'SMS notifications')}
          {toggle('push', 'Push notifications')}
        </fieldset>
        <fieldset className="mt-4">
          <legend className="mb-2 text-sm font-medium text-ink-800">Theme</legend>
          <div className="flex gap-4">
            {(['light', 'dark'] as const).map((theme) => (
              <label key={theme} className="flex items-center gap-2 text-ink-800">
                <input
                  type="radio"
                  name="preferences.theme"
                  value={theme}
                  checked={values.theme === theme}
                  onChange={() => {
                    setValues((current) => ({ ...current, theme }));
                    clearError('preferences.theme');
                  }}
                  className="size-4 accent-indigo-700"
                />
                {theme === 'light' ? 'Light' : 'Dark'}
              </label>
            ))}
          </div>
          {errors['preferences.theme'] ? <p className="mt-1 text-sm text-danger">{errors['preferences.theme']}</p> : null}
        </fieldset>
      </SectionCard>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" onClick={onCancel} disabled={pending} className={buttonClass('secondary', 'md')}>
          Cancel
        </button>
        <button type="submit" disabled={pending} className={buttonClass('primary', 'md')}>
          {pending ? 'Saving...' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
