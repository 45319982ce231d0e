const PROBE_ORIGIN = 'https://same-site.invalid';

/**
 * The `next` query value, when it is a path of this site to open after a registration: it
 * must start with a single '/' (not '//' or '/\', which browsers read as another host) and hold
 * no backslash, space or control character (a tab inside '/\t/host' is dropped by URL
 * parsing, leaving '//host'). Anything else is null, so it is never followed.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return null;
  if (/[\\\s\u0000-\u001f\u007f]/.test(next)) return null;
  let url: URL;
  try {
    url = new URL(next, PROBE_ORIGIN);
  } catch {
    return null;
  }
  return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
}
