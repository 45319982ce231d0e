import { describe, expect, it } from 'vitest';
import { testConfig } from '@/test/render';
import { loginTarget } from './redirect-target';

const { platformUrls } = testConfig();

describe('loginTarget', () => {
  it('goes to the main platform home without a redirect', () => {
    expect(loginTarget(null, platformUrls)).toBe('https://main.example.test');
    expect(loginTarget('', platformUrls)).toBe('https://main.example.test');
  });
  it.each([
    'https://main.example.test/profile',
    'https://hire.example.test/dashboard?tab=1',
    'https://campus.example.test/',
    'https://career.example.test/roadmap#top',
  ])('honours a platform origin: %s', (redirect) => {
    expect(loginTarget(redirect, platformUrls)).toBe(new URL(redirect).href);
  });
  it('resolves a path against the main platform', () => {
    expect(loginTarget('/profile', platformUrls)).toBe('https://main.example.test/profile');
  });
  it.each([
    'https://evil.example/steal',
    '//evil.example/steal',
    'https://hire.example.test.evil.example/',
    'http://hire.example.test/',
    'https://hire.example.test:8443/',
    'javascript:alert(1)',
    'http://[::1',
  ])('ignores anything else: %s', (redirect) => {
    expect(loginTarget(redirect, platformUrls)).toBe('https://main.example.test');
  });
});
