import { useCallback, useEffect, useState } from 'react';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import type { SignInProvider } from '@/lib/config';
import { useConfig } from '@/lib/config-context';
import { oauthPopupErrorMessage, oauthStartUrl, openOAuthPopup } from '@/lib/oauth-popup';
import { PROVIDER_NAMES, type IdentityProvider } from '@/lib/sign-in-providers';
import type { NeedsConfirmation } from '@/lib/use-confirm-identity';
import { disconnectIdentity, identityStatusOf, linkIdentity, listIdentities, type Identity } from '../api/identities';

export type IdentityList = { state: 'loading' } | { state: 'ready'; items: Identity[] } | { state: 'failed'; message: string };

const FALLBACK_MESSAGE = 'Something went wrong';

const messageOf = (error: unknown) => (error instanceof ApiError && error.message ? error.message : FALLBACK_MESSAGE);

/**
 * The provider accounts connected to the signed-in person, and connecting (the provider's
 * popup with intent=link, then oauth/link) or disconnecting one. Outcomes are toasted here.
 * Connecting needs a recent sign-in: `needsConfirmation` asks the person to confirm it's them,
 * then connects with the same ticket (it is not spent by the refusal). Disconnecting needs one
 * too, and runs again once confirmed.
 */
export function useIdentities(needsConfirmation?: NeedsConfirmation) {
  const { apiBaseUrl, platformUrls } = useConfig();
  const [list, setList] = useState<IdentityList>({ state: 'loading' });
  const [busy, setBusy] = useState<IdentityProvider | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const result = await listIdentities(apiBaseUrl, signal);
        setList({ state: 'ready', items: result.data.items });
      } catch (error) {
        if (signal?.aborted) return;
        setList({ state: 'failed', message: messageOf(error) });
      }
    },
    [apiBaseUrl],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const connect = async (provider: SignInProvider) => {
    setBusy(provider);
    try {
      const popup = await openOAuthPopup(oauthStartUrl(apiBaseUrl, provider, { intent: 'link' }), { trustedOrigin: new URL(platformUrls.main).origin, provider });
      if (!popup.ok) {
        const message = oauthPopupErrorMessage(provider, popup.code);
        if (message) accountToast.error(message);
        return;
      }
      await link(provider, popup.value);
    } catch (error) {
      accountToast.error(messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  /** Spends the popup's ticket; tried again once the person has confirmed it's them. */
  const link = async (provider: SignInProvider, ticket: string): Promise<void> => {
    try {
      const result = await linkIdentity(apiBaseUrl, ticket);
      accountToast.success(result.message || `${PROVIDER_NAMES[provider]} account connected`);
      // The list says which email was connected, and when.
      await load();
    } catch (error) {
      const again = () => {
        setBusy(provider);
        void link(provider, ticket).finally(() => setBusy(null));
      };
      if (needsConfirmation?.(error, again)) return;
      accountToast.error(messageOf(error));
    }
  };

  const disconnect = async (provider: IdentityProvider): Promise<boolean> => {
    setBusy(provider);
    try {
      const result = await disconnectIdentity(apiBaseUrl, provider);
      setList((current) => (current.state === 'ready' ? { state: 'ready', items: current.items.filter((item) => item.provider !== provider) } : current));
      accountToast.success(result.message || `${PROVIDER_NAMES[provider]} account disconnected`);
      return true;
    } catch (error) {
      // Removing a way in needs a recent sign-in too: confirm, then disconnect.
      if (needsConfirmation?.(error, () => void disconnect(provider))) return false;
      accountToast.error(messageOf(error));
      // Disconnected elsewhere: show what the server has now.
      if (identityStatusOf(error) === 404) void load();
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { list, busy, connect, disconnect };
}
