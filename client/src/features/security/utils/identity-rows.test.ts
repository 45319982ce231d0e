import { describe, expect, it } from 'vitest';
import type { Identity } from '../api/identities';
import { identityRows } from './identity-rows';

const github: Identity = { provider: 'github', email: 'octo@example.com', linkedAt: '2026-03-02T10:00:00Z' };
const google: Identity = { provider: 'google', email: 'asha@gmail.com', linkedAt: '2026-01-02T10:00:00Z' };
const linkedin: Identity = { provider: 'linkedin', email: 'asha@example.com', linkedAt: '2026-02-02T10:00:00Z' };

const summary = (rows: ReturnType<typeof identityRows>) => rows.map((row) => `${row.provider}:${row.identity ? 'connected' : 'not'}${row.canConnect ? '+connect' : ''}`);

describe('identityRows', () => {
  it('lists Google first when configured, then the offered providers in the server order', () => {
    expect(summary(identityRows([github], { googleConfigured: true, signInProviders: ['microsoft', 'github'] }))).toEqual([
      'google:not',
      'microsoft:not+connect',
      'github:connected',
    ]);
  });

  it('offers no Connect for Google, whose own flow cannot link', () => {
    expect(summary(identityRows([], { googleConfigured: true, signInProviders: [] }))).toEqual(['google:not']);
  });

  it('still shows a connected account whose provider is no longer offered, so it can be disconnected', () => {
    expect(summary(identityRows([linkedin, google], { googleConfigured: false, signInProviders: ['github'] }))).toEqual([
      'github:not+connect',
      'google:connected',
      'linkedin:connected',
    ]);
  });

  it('has no rows when nothing is offered or connected, and skips providers it does not know', () => {
    const unknown = { provider: 'myspace', email: 'x@example.com', linkedAt: '2026-01-01T00:00:00Z' } as unknown as Identity;
    expect(identityRows([unknown], { googleConfigured: false, signInProviders: [] })).toEqual([]);
  });
});
