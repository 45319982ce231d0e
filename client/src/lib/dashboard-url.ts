import type { AppConfig } from './config';

/**
 * Where the header's Dashboard link goes: the platform site of the user's role, matched
 * case-insensitively; any other role (or none) goes to the site root.
 */
export function dashboardHref(role: string | null | undefined, platformUrls: AppConfig['platformUrls']): string {
  switch ((role ?? '').trim().toLowerCase()) {
    case 'hire':
      return platformUrls.hire;
    case 'campus':
      return platformUrls.campus;
    case 'career':
      return platformUrls.career;
    default:
      return '/';
  }
}
