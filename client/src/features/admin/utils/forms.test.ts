import { describe, expect, it } from 'vitest';
import { clientFormErrors, emailMatches, parseSeatLimit, reasonError, redirectUrisFrom, SEAT_LIMIT_ERROR } from './forms';

describe('admin forms', () => {
  it('need a reason to suspend, spaces alone not counting', () => {
    expect(reasonError('   ')).toBe('Reason is required');
    expect(reasonError('Spam')).toBeUndefined();
  });

  it('take the typed email as a match whatever its case and surrounding spaces', () => {
    expect(emailMatches(' Mina@Example.com ', 'mina@example.com')).toBe(true);
    expect(emailMatches('mina@example.co', 'mina@example.com')).toBe(false);
    expect(emailMatches('', '')).toBe(false);
  });

  it('read a seat limit as a whole number, blank as no limit', () => {
    expect(parseSeatLimit('')).toEqual({ ok: true, value: null });
    expect(parseSeatLimit(' 25 ')).toEqual({ ok: true, value: 25 });
    for (const bad of ['-3', '2.5', 'ten']) expect(parseSeatLimit(bad)).toEqual({ ok: false, error: SEAT_LIMIT_ERROR });
  });

  it("read a seat limit only up to the server's 1,000,000, in the server's words", () => {
    expect(parseSeatLimit('1000000')).toEqual({ ok: true, value: 1_000_000 });
    expect(parseSeatLimit('1')).toEqual({ ok: true, value: 1 });
    for (const bad of ['0', '1000001', '999999999', '12345678901234567890']) {
      expect(parseSeatLimit(bad)).toEqual({ ok: false, error: 'Seat limit must be a whole number from 1 to 1000000' });
    }
  });

  it('read redirect URIs one per line, blank lines and repeats dropped', () => {
    expect(redirectUrisFrom(' https://a.example/cb \n\nhttps://b.example/cb\r\nhttps://a.example/cb\n')).toEqual(['https://a.example/cb', 'https://b.example/cb']);
  });

  it('ask for a name and at least one redirect URI', () => {
    expect(clientFormErrors({ name: ' ', redirectUris: '\n', firstParty: false, type: 'public', alg: 'RS256' })).toEqual({
      name: 'Name is required',
      redirectUris: 'At least one redirect URI is required',
    });
    expect(clientFormErrors({ name: 'Partner', redirectUris: 'https://p.example/cb', firstParty: false, type: 'public', alg: 'RS256' })).toEqual({});
  });
});
