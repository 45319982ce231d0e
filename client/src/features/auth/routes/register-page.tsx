import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { TextField } from '@/components/text-field';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { dashboardHref } from '@/lib/dashboard-url';
import { useFieldErrors } from '@/lib/use-field-errors';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { failureMessage, fieldErrorsOf } from '../api/auth-request';
import { register, type Role } from '../api/register';
import { sendCodeOnTheWay } from '../api/send-otp-email';
import { AuthLayout } from '../components/auth-layout';
import { GoogleButton, OrDivider } from '../components/google-button';
import { PasswordField } from '../components/password-field';
import { ProviderButtons } from '../components/provider-buttons';
import { RoleSelector } from '../components/role-selector';
import { SubmitButton } from '../components/submit-button';
import { useGoogleAuth } from '../hooks/use-google-auth';
import { useOfferedProviders } from '../hooks/use-offered-providers';
import { useProviderAuth } from '../hooks/use-provider-auth';
import { useReturnPath } from '../hooks/use-return-path';
import { hasErrors, ROLE_NAME_LABELS, validateRegister, type RegisterField, type RegisterValues } from '../utils/auth-forms';
import { verifyOtpState } from '../utils/verify-otp-state';

const FIELDS: readonly RegisterField[] = ['name', 'email', 'countryCode', 'phone', 'password'];

export function RegisterPage() {
  const { apiBaseUrl, platformUrls, signInUrls } = useConfig();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // An invitation sends people here with its address (`?email=`) and its own page to come
  // back to once the email is verified (`?next=`, followed only when it is a path of this site).
  const next = useReturnPath('next');
  const invitedEmail = searchParams.get('email')?.trim() ?? '';
  const [values, setValues] = useState<RegisterValues>({ role: 'career', name: '', email: '', countryCode: '+91', phone: '', password: '' });
  // Filled in after the first render, which must equal the prerendered page (built without a
  // query); an address typed before the app took the page over wins.
  useEffect(() => {
    if (invitedEmail) setValues((current) => (current.email ? current : { ...current, email: invitedEmail }));
  }, [invitedEmail]);
  const [isPending, setPending] = useState(false);
  const { errors, setErrors, clear, setFromServer } = useFieldErrors<RegisterField>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  // A new Google (or other provider's) account goes to the platform of the role it chose (the
  // Dashboard link's target).
  const roleTarget = (role: Role) => {
    if (next) return new URL(next, platformUrls.main).href;
    const href = dashboardHref(role, platformUrls, signInUrls);
    return href === '/' ? platformUrls.main : href;
  };
  const google = useGoogleAuth({ intent: 'register', role: values.role, target: roleTarget });
  const providers = useOfferedProviders();
  const oauth = useProviderAuth({ intent: 'register', role: values.role, target: roleTarget, next });
  const nameLabel = ROLE_NAME_LABELS[values.role];

  const update = (field: RegisterField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    clear(field);
  };

  const changeRole = (role: Role) => {
    setValues((current) => ({ ...current, role }));
    // The name's error names the label, which follows the role.
    clear('name');
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateRegister(values);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    setPending(true);
    const email = values.email.trim();
    const countryCode = values.countryCode.trim();
    const phone = `${countryCode}${values.phone.trim()}`;
    try {
      const result = await register(apiBaseUrl, { name: values.name.trim(), email, countryCode, phone, password: values.password, role: values.role });
      accountToast.success(result.message || 'Registered successfully');
    } catch (error) {
      setFromServer(fieldErrorsOf(error), FIELDS);
      accountToast.error(failureMessage(error, 'Registration failed'));
      setPending(false);
      return;
    }
    // SPEC.md section 4: register, then ask for a code, then the OTP screen.
    const resendIn = await sendCodeOnTheWay(apiBaseUrl, email);
    setPending(false);
    void navigate(paths.auth.verifyOtp.getHref(), { state: verifyOtpState(email, { phone, next, resendIn }) });
  };

  return (
    <AuthLayout title="Create Your Account" subtitle="Join Talent Suite as a student, an institute or a hiring organisation.">
      <form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Register">
        <RoleSelector value={values.role} onChange={changeRole} />
        <TextField
          label={nameLabel}
          name="name"
          autoComplete={values.role === 'career' ? 'name' : 'organization'}
          required
          value={values.name}
          error={errors.name}
          onChange={(event) => update('name', event.target.value)}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={values.email}
          error={errors.email}
          onChange={(event) => update('email', event.target.value)}
        />
        <div className="grid grid-cols-[7rem_1fr] gap-3">
          <TextField
            label="Country Code"
            name="countryCode"
            autoComplete="tel-country-code"
            inputMode="tel"
            required
            value={values.countryCode}
            error={errors.countryCode}
            onChange={(event) => update('countryCode', event.target.value)}
          />
          <TextField
            label="Phone"
            type="tel"
            name="phone"
            autoComplete="tel-national"
            inputMode="numeric"
            required
            value={values.phone}
            error={errors.phone}
            onChange={(event) => update('phone', event.target.value)}
          />
        </div>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          value={values.password}
          error={errors.password}
          onChange={(event) => update('password', event.target.value)}
        />
        <SubmitButton pending={isPending} disabled={google.isPending || oauth.pending !== null}>
          {isPending ? 'Registering...' : 'Register'}
        </SubmitButton>
      </form>
      <OrDivider />
      <GoogleButton label="Sign up with Google" onClick={() => void google.start()} pending={google.isPending} disabled={isPending || oauth.pending !== null} />
      <ProviderButtons providers={providers} pending={oauth.pending} disabled={isPending || google.isPending} onStart={(provider) => void oauth.start(provider)} />
      <p className="mt-6 text-center text-sm text-ink-700">
        Already have an account?{' '}
        <Link to={paths.auth.login.getHref({ redirect: next ?? undefined })} className="font-semibold text-accent hover:underline">
          Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}
