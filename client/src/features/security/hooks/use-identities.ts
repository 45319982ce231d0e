import { useCallback, useEffect, useState } from 'react';
import { accountToast } from '@/lib/account-toast';
import { ApiError } from '@/lib/api-client';
import type { SignInProvider } from '@/lib/config';
import { useConfig } from '@/lib/config-context';
import { oauthPopupErrorMessage, oauthStartUrl, openOAuthPopup } from '@/lib/oauth-popup';
import { PROVIDER_NAMES, type IdentityProvider } from '@/lib/sign-in-providers';
import { disconnectIdentity, identityStatusOf, linkIdentity, listIdentities, type Identity } from '../api/identities';

export type IdentityList = { state: 'loading' } | { state: 'ready'; items: Identity[] } | { state: 'failed'; message: string };

const FALLBACK_MESSAGE = 'Something went wrong';

const messageOf = (error: unknown) => (error instanceof ApiError && error.message ? error.message : FALLBACK_MESSAGE);

/**
 * The provider accounts connected to the signed-in person, and connecting (the provider's
 * popup with intent=link, then oauth/link) or disconnecting one. Outcomes are toasted here.
 */
export function useIdentities() {
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
      const result = await linkIdentity(apiBaseUrl, popup.value);
      accountToast.success(result.message || `${PROVIDER_NAMES[provider]} account connected`);
      // The list says which email was connected, and when.
      await load();
    } catch (error) {
      accountToast.error(messageOf(error));
    } finally {
      setBusy(null);
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
