import { describe, expect, it } from 'vitest';
import { readVerifyOtpState, verifyOtpState } from './verify-otp-state';

describe('the /verify-otp navigation state', () => {
  it('needs an email', () => {
    expect(readVerifyOtpState(null)).toBeNull();
    expect(readVerifyOtpState({ email: ' ' })).toBeNull();
    expect(readVerifyOtpState({ email: 'asha@example.com', phone: '+919876543210' })).toEqual({ email: 'asha@example.com', phone: '+919876543210' });
  });

  it('keeps a next path of this site and drops any other', () => {
    expect(readVerifyOtpState({ email: 'a@example.com', next: '/invitations/t1' })).toEqual({ email: 'a@example.com', next: '/invitations/t1' });
    expect(readVerifyOtpState({ email: 'a@example.com', next: '//evil.example' })).toEqual({ email: 'a@example.com' });
    expect(verifyOtpState('a@example.com', { phone: '+91123456', next: '/invitations/t1' })).toEqual({ email: 'a@example.com', phone: '+91123456', next: '/invitations/t1' });
    expect(verifyOtpState('a@example.com', { next: 'https://evil.example/' })).toEqual({ email: 'a@example.com' });
    expect(verifyOtpState('a@example.com', { next: null })).toEqual({ email: 'a@example.com' });
  });
});
