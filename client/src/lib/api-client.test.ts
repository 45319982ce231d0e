import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { apiRequest, NetworkError } from './api-client';

describe('apiRequest', () => {
  it('sends cookies and the stored bearer token', async () => {
    window.localStorage.setItem('token', 'abc');
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse(200, { success: true }));
    await apiRequest('/api', '/auth/verify', { fetchImpl });
    const init = fetchImpl.mock.calls[0]?.[1];
    expect(fetchImpl.mock.calls[0]?.[0]).toBe('/api/auth/verify');
    expect(init?.credentials).toBe('include');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });

  it('retries a network failure once after 1 s', async () => {
    const sleep = vi.fn(() => Promise.resolve());
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(jsonResponse(200, { success: true, data: { ok: 1 } }));
    const response = await apiRequest('/api', '/news', { fetchImpl, sleep });
    expect(sleep).toHaveBeenCalledExactlyOnceWith(1000);
    expect(response.status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('gives up after two attempts', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api', '/news', { fetchImpl, sleep: () => Promise.resolve() })).rejects.toBeInstanceOf(NetworkError);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('does not retry an HTTP error response', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse(401, { success: false, message: 'Session expired or unauthorized' }));
    const response = await apiRequest('/api', '/auth/verify', { fetchImpl });
    expect(response.status).toBe(401);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
});
