import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { apiRequest, NetworkError, toApiError, waitText, withWait } from './api-client';

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

describe('a throttled call', () => {
  it("reads Retry-After and names the wait in the server's message", async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(
      jsonResponse(429, { success: false, code: 'RATE_LIMITED', message: 'Too many failed sign-in attempts. Please try again later.' }, { 'Retry-After': '900' }),
    );
    const error = toApiError(await apiRequest('/api', '/auth/login', { method: 'POST', body: {}, fetchImpl }), 'Login failed');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(900);
    expect(error.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
  });

  it('keeps messages whose remedy is not waiting, and answers without the header as they are', () => {
    expect(withWait('Too many wrong codes. Please request a new one.', 60)).toBe('Too many wrong codes. Please request a new one.');
    expect(withWait('An organization can send at most 1000 invitations a day. Please try again tomorrow.', 3600)).toBe(
      'An organization can send at most 1000 invitations a day. Please try again tomorrow.',
    );
    expect(withWait('Too many requests from this address. Please slow down.', 1)).toBe('Too many requests from this address. Please slow down. Try again in 1 second.');
    expect(withWait('Please try again later.', undefined)).toBe('Please try again later.');
    const notThrottled = toApiError({ status: 503, body: { success: false, message: 'Busy' }, retryAfterSeconds: 1 }, 'x');
    expect(notThrottled.message).toBe('Busy');
    expect(notThrottled.retryAfterSeconds).toBeUndefined();
  });

  it('rounds a wait up to its unit', () => {
    expect(waitText(0)).toBe('in 1 second');
    expect(waitText(59)).toBe('in 59 seconds');
    expect(waitText(61)).toBe('in 2 minutes');
    expect(waitText(3600)).toBe('in 1 hour');
    expect(waitText(3601)).toBe('in 2 hours');
  });
});
