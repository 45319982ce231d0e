import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { paths } from '@/config/paths';
import { useConfig } from '@/lib/config-context';
import { markSignedOut } from '@/lib/session';
import { clearStoredToken } from '@/lib/token-storage';

/**
 * POST /auth/logout. Resolves to null on success; on failure, to the server's message, or
 * 'Unknown error' when there is none (SPEC.md section 8: a network failure has no server
 * message).
 */
export async function logout(apiBaseUrl: string): Promise<string | null> {
  try {
    // Loaded on first use, like the session check: only a signed-in person logs out.
    const { apiRequest } = await import('@/lib/api-client');
    const response = await apiRequest<unknown>(apiBaseUrl, '/auth/logout', { method: 'POST' });
    if (response.status >= 200 && response.status < 300 && response.body?.success !== false) return null;
    return response.body?.message?.trim() || 'Unknown error';
  } catch {
    return 'Unknown error';
  }
}

/**
 * Logs out, forgets the stored token, toasts, goes to /login and lets the caller close its
 * menus. On failure only the toast `Logout failed: {message}` appears.
 */
export function useLogout(onSettled?: () => void) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);

  const run = useCallback(async () => {
    setPending(true);
    const failure = await logout(apiBaseUrl);
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
