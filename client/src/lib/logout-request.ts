import { apiRequest } from '@/lib/api-client';

/**
 * POST /auth/logout. Resolves to null on success; on failure, to the server's message, or
 * 'Unknown error' when there is none (SPEC.md section 8: a network failure has no server
 * message).
 */
export async function postLogout(apiBaseUrl: string): Promise<string | null> {
  try {
    const response = await apiRequest<unknown>(apiBaseUrl, '/auth/logout', { method: 'POST' });
    if (response.status >= 200 && response.status < 300 && response.body?.success !== false) return null;
    return response.body?.message?.trim() || 'Unknown error';
  } catch {
    return 'Unknown error';
  }
}
