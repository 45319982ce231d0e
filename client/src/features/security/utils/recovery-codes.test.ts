import { describe, expect, it } from 'vitest';
import { groupedSecret, recoveryCodesFile } from './recovery-codes';

describe('recovery codes', () => {
  it('makes a file that names the account and lists every code on its own line', () => {
    const text = recoveryCodesFile('Talent Suite', 'asha@example.com', ['abcde-fghjk', 'mnpqr-stuvw']);
    expect(text).toContain('Talent Suite recovery codes for asha@example.com');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['abcde-fghjk', 'mnpqr-stuvw']));
  });

  it('groups the secret in fours', () => {
    expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupedSecret('ABCD')).toBe('ABCD');
  });
});
