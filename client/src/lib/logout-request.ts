import { apiRequest } from '@/lib/api-client';
import { markSignedOut } from '@/lib/session';
import { toast } from '@/lib/toast';
import { clearStoredToken } from '@/lib/token-storage';

/**
 * POST /auth/logout. Resolves to null on success; on failure, to the server's message, or
 * 'Unknown error' when there is none (SPEC.md section 8: a network failure has no server
 * message).
 */
async function postLogout(apiBaseUrl: string): Promise<string | null> {
  try {
    const response = await apiRequest<unknown>(apiBaseUrl, '/auth/logout', { method: 'POST' });
    if (response.status >= 200 && response.status < 300 && response.body?.success !== false) return null;
    return response.body?.message?.trim() || 'Unknown error';
  } catch {
    return 'Unknown error';
  }
}

/**
 * Signs out: POST /auth/logout, then the stored token and the session are forgotten (which
 * empties the GraphQL cache, see apollo-client.ts) and `Logged out successfully` is toasted;
 * on failure only the toast `Logout failed: {message}`. True when signed out. The header's
 * Logout loads this module on first use (lib/logout.ts); "Confirm it's you" imports it.
 */
export async function signOut(apiBaseUrl: string): Promise<boolean> {
  const failure = await postLogout(apiBaseUrl);
  if (failure !== null) {
    toast.error(`Logout failed: ${failure}`);
    return false;
  }
  clearStoredToken();
  markSignedOut();
  toast.success('Logged out successfully');
  return true;
}
