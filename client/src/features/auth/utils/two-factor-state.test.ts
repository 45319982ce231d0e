import { describe, expect, it } from 'vitest';
import { readTwoFactorState } from './two-factor-state';

describe('readTwoFactorState', () => {
  it('reads the challenge and target of a sign-in waiting for its code', () => {
    expect(readTwoFactorState({ twoFactor: { challenge: 'abc', target: 'https://hire.example' } })).toEqual({ challenge: 'abc', target: 'https://hire.example' });
  });

  it('ignores anything else', () => {
    expect(readTwoFactorState(null)).toBeNull();
    expect(readTwoFactorState({ email: 'a@b.co' })).toBeNull();
    expect(readTwoFactorState({ twoFactor: { challenge: '', target: '/' } })).toBeNull();
    expect(readTwoFactorState({ twoFactor: { challenge: 'abc' } })).toBeNull();
  });
});
