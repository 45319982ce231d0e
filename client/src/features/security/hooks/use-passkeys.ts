import { useCallback, useEffect, useState } from 'react';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import type { NeedsConfirmation } from '@/lib/use-confirm-identity';
import { createPasskey, passkeyErrorMessage } from '@/lib/webauthn';
import {
  fieldErrorsOf,
  finishPasskeyRegistration,
  listPasskeys,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  statusOf,
  type Passkey,
} from '../api/passkeys';
import { defaultPasskeyName } from '../utils/passkey-name';

export type PasskeyList = { state: 'loading' } | { state: 'ready'; items: Passkey[] } | { state: 'failed'; message: string };

/** The outcome of a rename: done, or the error to show on the name field. */
export type RenameOutcome = { ok: true } | { ok: false; fieldError?: string };

const FALLBACK_MESSAGE = 'Something went wrong';

/**
 * The person's passkeys and what they can do with them: add one (the browser's prompt between
 * the server's start and finish), rename, remove. Success and failure are toasted here. Adding
 * and removing need a recent sign-in: `needsConfirmation` asks the person to confirm it's them,
 * then does it.
 */
export function usePasskeys(needsConfirmation?: NeedsConfirmation) {
  const { apiBaseUrl } = useConfig();
  const [list, setList] = useState<PasskeyList>({ state: 'loading' });
  const [isAdding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const result = await listPasskeys(apiBaseUrl, signal);
        setList({ state: 'ready', items: result.data.items });
      } catch (error) {
        if (signal?.aborted) return;
        setList({ state: 'failed', message: passkeyErrorMessage(error, FALLBACK_MESSAGE) ?? FALLBACK_MESSAGE });
      }
    },
    [apiBaseUrl],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const update = (change: (items: Passkey[]) => Passkey[]) => setList((current) => (current.state === 'ready' ? { state: 'ready', items: change(current.items) } : current));

  /** A passkey the server no longer has (removed elsewhere): say so and show what it has. */
  const failed = (error: unknown) => {
    accountToast.error(passkeyErrorMessage(error, FALLBACK_MESSAGE) ?? FALLBACK_MESSAGE);
    if (statusOf(error) === 404) void load();
  };

  const add = async (): Promise<void> => {
    setAdding(true);
    try {
      const start = await startPasskeyRegistration(apiBaseUrl);
      const credential = await createPasskey(start.data.options);
      // Named after this browser and system; the person can rename it afterwards.
      const result = await finishPasskeyRegistration(apiBaseUrl, { name: defaultPasskeyName(navigator), credential });
      const added = result.data.passkey;
      if (list.state === 'ready') update((items) => [added, ...items.filter((item) => item.id !== added.id)]);
      else void load();
      accountToast.success('Passkey added');
    } catch (error) {
      if (needsConfirmation?.(error, () => void add())) return;
      // Closing the browser's prompt is a choice, not a failure: nothing is shown.
      const message = passkeyErrorMessage(error, FALLBACK_MESSAGE);
      if (message) accountToast.error(message);
    } finally {
      setAdding(false);
    }
  };

  const rename = async (id: string, name: string): Promise<RenameOutcome> => {
    setBusyId(id);
    try {
      const result = await renamePasskey(apiBaseUrl, id, name.trim());
      const renamed = result.data.passkey;
      update((items) => items.map((item) => (item.id === id ? renamed : item)));
      accountToast.success('Passkey renamed');
      return { ok: true };
    } catch (error) {
      failed(error);
      const fieldError = fieldErrorsOf(error).name;
      return fieldError ? { ok: false, fieldError } : { ok: false };
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (id: string): Promise<boolean> => {
    setBusyId(id);
    try {
      await removePasskey(apiBaseUrl, id);
      update((items) => items.filter((item) => item.id !== id));
      accountToast.success('Passkey removed');
      return true;
    } catch (error) {
      // Removing a way in needs a recent sign-in too: confirm, then remove.
      if (needsConfirmation?.(error, () => void remove(id))) return false;
      failed(error);
      return false;
    } finally {
      setBusyId(null);
    }
  };

  return { list, isAdding, busyId, add, rename, remove };
}
