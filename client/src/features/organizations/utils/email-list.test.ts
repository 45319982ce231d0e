import { describe, expect, it } from 'vitest';
import { looksLikeEmail, parseEmailList, uniqueEmails } from './email-list';

describe('parseEmailList', () => {
  it('splits on commas, semicolons, spaces and new lines', () => {
    expect(parseEmailList('asha@example.com, ravi@example.com\nmeera@example.com;kabir@example.com  tara@example.com\r\n')).toEqual([
      'asha@example.com',
      'ravi@example.com',
      'meera@example.com',
      'kabir@example.com',
      'tara@example.com',
    ]);
  });

  it('keeps each address once, whatever its case, in its first spelling', () => {
    expect(parseEmailList('Asha@Example.com asha@example.com ASHA@EXAMPLE.COM')).toEqual(['Asha@Example.com']);
  });

  it('is empty for blank text, and keeps malformed words for the server to report', () => {
    expect(parseEmailList(' \n ,, ')).toEqual([]);
    expect(parseEmailList('not-an-email asha@example.com')).toEqual(['not-an-email', 'asha@example.com']);
  });
});

describe('looksLikeEmail and uniqueEmails', () => {
  it('tells addresses from other words', () => {
    expect(looksLikeEmail('asha@example.com')).toBe(true);
    expect(looksLikeEmail('Email')).toBe(false);
    expect(looksLikeEmail('asha@example')).toBe(false);
    expect(looksLikeEmail('')).toBe(false);
  });

  it('drops blanks and repeats', () => {
    expect(uniqueEmails([' a@x.io ', '', 'A@X.io', 'b@x.io'])).toEqual(['a@x.io', 'b@x.io']);
  });
});
