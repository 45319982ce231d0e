import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { markSignedOut } from '@/lib/session';
import { toast } from '@/lib/toast';
import { clearStoredToken } from '@/lib/token-storage';

/**
 * The header's Logout: POST /auth/logout; then the stored token and the session are forgotten
 * (which empties the GraphQL cache, see apollo-client.ts), a toast, /login, and the caller's
 * menus closed. On failure only the toast `Logout failed: {message}`. The request's module is
 * loaded on first use, like the session check: only a signed-in person logs out, so the home
 * page's bundle does without the API client. ("Confirm it's you" signs out the same way.)
 */
export function useLogout(onSettled?: () => void) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);

  const run = useCallback(async () => {
    setPending(true);
    const failure = await import('@/lib/logout-request').then(
      ({ postLogout }) => postLogout(apiBaseUrl),
      () => 'Unknown error',
    );
    setPending(false);
    if (failure !== null) {
      toast.error(`Logout failed: ${failure}`);
      return;
    }
    clearStoredToken();
    markSignedOut();
    toast.success('Logged out successfully');
    onSettled?.();
    void navigate(paths.auth.login.getHref());
  }, [apiBaseUrl, navigate, onSettled]);

  return { logout: run, isPending };
}
