import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it.each(['/invitations/abc123', '/organizations', '/profile?tab=1#top', '/'])('keeps a path of this site: %s', (next) => {
    expect(safeNextPath(next)).toBe(next);
  });

  it.each([
    null,
    undefined,
    '',
    'invitations/abc',
    '//evil.example/steal',
    '/\\evil.example',
    '/\t/evil.example',
    '/ /evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    ' /profile',
  ])('refuses anything else: %j', (next) => {
    expect(safeNextPath(next)).toBeNull();
  });
});
