import { useCallback, useEffect, useRef, useState } from 'react';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { useWebAuthnAvailable } from '@/lib/use-webauthn-available';
import { conditionalMediationAvailable, getPasskey, passkeyErrorMessage } from '@/lib/webauthn';
import { usePageRestored } from '@/lib/use-page-restored';
import type { AuthResult, SignedInData } from '../api/auth-request';
import { finishPasskeyLogin, startPasskeyLogin } from '../api/passkey-login';

type Mediation = 'conditional' | 'optional';

/**
 * Sign-in with a passkey on /login, two ways:
 * - the button (`signIn`): the browser's passkey prompt;
 * - autofill: where the browser offers passkeys in the email field's suggestions (conditional
 *   mediation), a request waits quietly from the moment the page opens (`autofill` tells the
 *   page to mark the field `autocomplete="username webauthn"`).
 * A browser runs one WebAuthn request at a time, so the button first aborts the waiting one,
 * and leaving the page aborts both. Each attempt gets fresh options from login/start, and a
 * success goes to `onSignedIn`, the same end as a password sign-in. `autofillWanted` is false
 * while the page shows no email field (the two-factor step).
 */
export function usePasskeySignIn(onSignedIn: (result: AuthResult<SignedInData>) => void, { autofillWanted = true }: { autofillWanted?: boolean } = {}) {
  const { apiBaseUrl } = useConfig();
  const available = useWebAuthnAvailable();
  const [autofill, setAutofill] = useState(false);
  const [isPending, setPending] = useState(false);
  usePageRestored(useCallback(() => setPending(false), []));
  // Bumped after a button attempt that did not sign in: autofill waits again, with new options.
  const [round, setRound] = useState(0);
  const waiting = useRef<AbortController | null>(null);
  const prompt = useRef<AbortController | null>(null);
  const finish = useRef(onSignedIn);
  useEffect(() => {
    finish.current = onSignedIn;
  });

  /** One attempt; true when it signed in. A cancel or an abort ends it without a word. */
  const attempt = useCallback(
    async (mediation: Mediation, signal: AbortSignal): Promise<boolean> => {
      let chosen = false;
      try {
        const start = await startPasskeyLogin(apiBaseUrl, signal);
        const credential = await getPasskey(start.options, { mediation, signal });
        if (signal.aborted) return false;
        chosen = true;
        if (mediation === 'conditional') setPending(true);
        const result = await finishPasskeyLogin(apiBaseUrl, { challenge: start.challenge, credential });
        finish.current(result);
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        // Autofill is an offer nobody asked for: until a passkey is picked, its failures stay quiet.
        if (mediation === 'conditional' && !chosen) return false;
        const message = passkeyErrorMessage(error, 'Login failed');
        if (message) accountToast.error(message);
        if (mediation === 'conditional') {
          setPending(false);
          // The picked passkey was refused (an old challenge, say): autofill waits again, with
          // new options, or the email field would offer passkeys that do nothing.
          setRound((current) => current + 1);
        }
        return false;
      }
    },
    [apiBaseUrl],
  );

  useEffect(() => {
    if (!available) return undefined;
    let live = true;
    void conditionalMediationAvailable().then((yes) => {
      if (live && yes) setAutofill(true);
    });
    return () => {
      live = false;
    };
  }, [available]);

  // Runs after the render that marked the email field, so the browser sees the mark.
  useEffect(() => {
    if (!autofill || !autofillWanted) return undefined;
    const controller = new AbortController();
    waiting.current = controller;
    void attempt('conditional', controller.signal);
    return () => controller.abort();
  }, [autofill, autofillWanted, round, attempt]);

  useEffect(() => () => prompt.current?.abort(), []);

  const signIn = useCallback(async () => {
    waiting.current?.abort();
    const controller = new AbortController();
    prompt.current = controller;
    setPending(true);
    const signedIn = await attempt('optional', controller.signal);
    if (signedIn || controller.signal.aborted) return;
    setPending(false);
    setRound((current) => current + 1);
  }, [attempt]);

  return { available, autofill: autofill && autofillWanted, isPending, signIn };
}
