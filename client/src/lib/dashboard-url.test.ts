import { describe, expect, it } from 'vitest';
import { dashboardHref } from './dashboard-url';

const urls = {
  main: 'https://main.example.test',
  hire: 'https://hire.example.test',
  campus: 'https://campus.example.test',
  career: 'https://career.example.test',
};

describe('dashboardHref', () => {
  it.each([
    ['hire', urls.hire],
    ['HIRE', urls.hire],
    ['Campus', urls.campus],
    ['campus', urls.campus],
    ['CaReEr', urls.career],
    [' career ', urls.career],
  ])('sends role %j to its platform site', (role, expected) => {
    expect(dashboardHref(role, urls)).toBe(expected);
  });

  it('opens the platform\'s own sign-in entry when one is configured (single sign-on)', () => {
    const signIn = { hire: 'https://hire.example.test/auth/login' };
    expect(dashboardHref('hire', urls, signIn)).toBe('https://hire.example.test/auth/login');
    expect(dashboardHref('campus', urls, signIn)).toBe(urls.campus);
  });

  it.each([['admin'], ['student'], [''], [null], [undefined]])('falls back to / for role %j', (role) => {
    expect(dashboardHref(role, urls)).toBe('/');
  });
});
