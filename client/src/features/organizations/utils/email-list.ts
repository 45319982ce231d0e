import { emailError } from '@/lib/validation';

/** Whether `value` has the shape of an email address (the sign-in form's rule). */
export const looksLikeEmail = (value: string): boolean => value.trim() !== '' && emailError(value) === undefined;

/** The addresses in `values`, each once (compared without case), in their first spelling. */
export function uniqueEmails(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const value = raw.trim();
    const key = value.toLowerCase();
    if (value === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/**
 * The addresses typed into the invite box: separated by commas, semicolons, spaces or new
 * lines, each once. Nothing is dropped for its shape: the server reports a malformed one
 * back as skipped, so the person sees it.
 */
export const parseEmailList = (text: string): string[] => uniqueEmails(text.split(/[\s,;]+/));
