import type { AppConfig } from './config';

/**
 * Where the header's Dashboard link goes: the platform of the user's role (matched
 * case-insensitively), at its own sign-in entry when one is configured, so the platform signs
 * the person in through Talent Suite's OpenID Provider; any other role (or none) goes to the
 * site root.
 */
export function dashboardHref(
  role: string | null | undefined,
  platformUrls: AppConfig['platformUrls'],
  signInUrls: AppConfig['signInUrls'] = {},
): string {
  switch ((role ?? '').trim().toLowerCase()) {
    case 'hire':
      return signInUrls.hire ?? platformUrls.hire;
    case 'campus':
      return signInUrls.campus ?? platformUrls.campus;
    case 'career':
      return signInUrls.career ?? platformUrls.career;
    default:
      return '/';
  }
}
