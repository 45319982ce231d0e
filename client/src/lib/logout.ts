import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { toast } from '@/lib/toast';

/**
 * The header's Logout: signs out (lib/logout-request.ts), then /login and the caller's menus
 * closed. The sign-out's module is loaded on first use, like the session check: only a
 * signed-in person logs out, so the home page's bundle does without the API client.
 */
export function useLogout(onSettled?: () => void) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);

  const run = useCallback(async () => {
    setPending(true);
    const signedOut = await import('@/lib/logout-request').then(
      ({ signOut }) => signOut(apiBaseUrl),
      () => {
        toast.error('Logout failed: Unknown error');
        return false;
      },
    );
    setPending(false);
    if (!signedOut) return;
    onSettled?.();
    void navigate(paths.auth.login.getHref());
  }, [apiBaseUrl, navigate, onSettled]);

  return { logout: run, isPending };
}
