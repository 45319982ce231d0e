import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { badgeTone } from '@/components/badge-styles';
import { buttonClass } from '@/components/button-styles';
import { SectionCard } from '@/components/section-card';
import { TextField } from '@/components/text-field';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { graphQLFieldErrors, graphQLMessage } from '@/lib/graphql-errors';
import { useConfirmIdentity, type NeedsConfirmation } from '@/lib/use-confirm-identity';
import { useFocusFirstInvalid } from '@/lib/use-focus-first-invalid';
import { codeError } from '@/lib/validation';
import { useConfirmTwoFactor, useDisableTwoFactor, useStartTwoFactor, type TwoFactorSetup } from '../api/two-factor';
import { groupedSecret, recoveryCodesFile } from '../utils/recovery-codes';

type TwoFactorSectionProps = { email: string; enabled: boolean };

type Stage = { step: 'idle' } | { step: 'setup'; setup: TwoFactorSetup } | { step: 'codes'; codes: string[] };

/** Two-factor sign-in: set it up with a QR code and a first code, keep the recovery codes, turn it off. */
export function TwoFactorSection({ email, enabled }: TwoFactorSectionProps) {
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [start, startState] = useStartTwoFactor();
  const { needsConfirmation, dialog } = useConfirmIdentity(enabled);
  const on = enabled || stage.step === 'codes';

  const begin = async () => {
    try {
      const result = await start();
      if (result.data) setStage({ step: 'setup', setup: result.data.startTwoFactorSetup });
    } catch (error) {
      if (needsConfirmation(error, () => void begin())) return;
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
    }
  };

  let body;
  if (stage.step === 'codes') body = <RecoveryCodes email={email} codes={stage.codes} onDone={() => setStage({ step: 'idle' })} />;
  else if (stage.step === 'setup') body = <Enrol setup={stage.setup} onEnabled={(codes) => setStage({ step: 'codes', codes })} onCancel={() => setStage({ step: 'idle' })} />;
  else if (enabled) body = <DisableForm needsConfirmation={needsConfirmation} />;
  else
    body = (
      <div className="grid gap-4">
        <p className="text-ink-700">Protect your account with a code from an authenticator app (Google Authenticator, 1Password, Authy…) each time you sign in.</p>
        <div>
          <button type="button" onClick={() => void begin()} disabled={startState.loading} className={buttonClass('primary', 'md')}>
            {startState.loading ? 'Starting…' : 'Set up two-factor'}
          </button>
        </div>
      </div>
    );

  return (
    <SectionCard
      title="Two-factor sign-in"
      action={
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeTone[on ? 'success' : 'neutral']}`}>{on ? 'Enabled' : 'Disabled'}</span>
      }
    >
      {body}
      {dialog}
    </SectionCard>
  );
}

function Enrol({ setup, onEnabled, onCancel }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const [confirm, { loading }] = useConfirmTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = codeError(code);
    if (missing) {
      setError(missing);
      focusFirstInvalid();
      return;
    }
    try {
      const result = await confirm({ variables: { input: { code: code.trim() } } });
      if (!result.data) return;
      accountToast.success(result.data.confirmTwoFactor.message);
      onEnabled(result.data.confirmTwoFactor.recoveryCodes);
    } catch (failure) {
      const message = graphQLMessage(failure, 'Something went wrong');
      setError(graphQLFieldErrors(failure).code ?? message);
      focusFirstInvalid();
      accountToast.error(message);
    }
  };
  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr] md:items-start">
      <figure className="justify-self-start rounded-xl bg-white p-3 ring-1 ring-ink-200">
        <QRCodeSVG value={setup.otpauthUri} size={176} marginSize={2} title="QR code for your authenticator app" role="img" aria-label="QR code for your authenticator app" />
      </figure>
      <div className="grid gap-4">
        <ol className="list-decimal space-y-1 pl-5 text-ink-700">
          <li>Scan the QR code with your authenticator app.</li>
          <li>
            Can&apos;t scan it? Enter this secret instead:{' '}
            <code data-testid="two-factor-secret" data-secret={setup.secret} className="break-all rounded bg-ink-100 px-1.5 py-0.5 font-mono text-sm text-ink-900">
              {groupedSecret(setup.secret)}
            </code>
          </li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <form ref={formRef} method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4 sm:max-w-xs">
          <TextField
            label="Code from the app"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
            required
            value={code}
            error={error}
            onChange={(event) => {
              setCode(event.target.value);
              setError(undefined);
            }}
          />
          <div className="flex flex-wrap gap-3">
            <button type="submit" disabled={loading} className={buttonClass('primary', 'md')}>
              {loading ? 'Turning on…' : 'Turn on'}
            </button>
            <button type="button" onClick={onCancel} className={buttonClass('secondary', 'md')}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

function RecoveryCodes({ email, codes, onDone }: { email: string; codes: string[]; onDone: () => void }) {
  const { appName } = useConfig();
  const download = () => {
    const file = new Blob([recoveryCodesFile(appName, email, codes)], { type: 'text/plain' });
    const url = URL.createObjectURL(file);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'talent-suite-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="grid gap-4">
      <p className="text-ink-700">
        Save these recovery codes now: they are shown only this once. Each one signs you in a single time if you lose your authenticator app.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-xl bg-ink-100 p-4 font-mono text-ink-900 sm:max-w-md">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button type="button" onClick={download} className={buttonClass('secondary', 'md')}>
          Download codes
        </button>
        <button type="button" onClick={onDone} className={buttonClass('primary', 'md')}>
          I have saved my codes
        </button>
      </div>
    </div>
  );
}

function DisableForm({ needsConfirmation }: { needsConfirmation: NeedsConfirmation }) {
  const [disable, { loading }] = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = codeError(code);
    if (missing) {
      setErrors({ code: missing });
      focusFirstInvalid();
      return;
    }
    try {
      const result = await disable({ variables: { input: { code: code.trim(), password: password || undefined } } });
      accountToast.success(result.data?.disableTwoFactor.message ?? 'Two-factor sign-in is off');
    } catch (failure) {
      if (needsConfirmation(failure, () => void submit(event))) return;
      setErrors(graphQLFieldErrors(failure));
      focusFirstInvalid();
      accountToast.error(graphQLMessage(failure, 'Something went wrong'));
    }
  };
  return (
    <div className="grid gap-4">
      <p className="text-ink-700">Signing in asks for a code from your authenticator app. To turn it off, confirm with your password and a code (or a recovery code).</p>
      <form ref={formRef} method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4 sm:max-w-md">
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          hint="Leave it empty if you signed up with Google and have not set a password."
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
        />
        <TextField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          maxLength={32}
          required
          value={code}
          error={errors.code}
          onChange={(event) => {
            setCode(event.target.value);
            setErrors((current) => ({ ...current, code: undefined }));
          }}
        />
        <div>
          <button type="submit" disabled={loading} className={buttonClass('secondary', 'md')}>
            {loading ? 'Turning off…' : 'Turn off two-factor'}
          </button>
        </div>
      </form>
    </div>
  );
}
