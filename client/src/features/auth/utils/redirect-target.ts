import type { AppConfig } from '@/lib/config';

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * SPEC.md section 2: the post-login target is the `redirect` query value only when its origin
 * is the main, hire, campus or career platform origin; otherwise the main platform home.
 * Relative values resolve against the main platform, so `/profile` stays on it and
 * `//elsewhere.example` does not.
 */
export function loginTarget(redirect: string | null, platformUrls: AppConfig['platformUrls']): string {
  const home = platformUrls.main;
  if (!redirect) return home;
  let target: URL;
  try {
    target = new URL(redirect, home);
  } catch {
    return home;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return home;
  const allowed = Object.values(platformUrls).map(originOf);
  return allowed.includes(target.origin) ? target.href : home;
}
