import { describe, expect, it } from 'vitest';
import { emailsFromCsv, parseCsv } from './csv-emails';

describe('parseCsv', () => {
  it('reads quoted cells with delimiters, doubled quotes and line breaks', () => {
    expect(parseCsv('name,note\n"Rao, Asha","said ""hi""\nthen left"\r\nRavi,plain')).toEqual([
      ['name', 'note'],
      ['Rao, Asha', 'said "hi"\nthen left'],
      ['Ravi', 'plain'],
    ]);
  });

  it('drops a byte-order mark and blank lines, and takes a quote inside a cell as it is', () => {
    expect(parseCsv('\uFEFFa,b\n\n\r\nc,d"e\n')).toEqual([
      ['a', 'b'],
      ['c', 'd"e'],
    ]);
  });

  it('guesses semicolons and tabs from the first line', () => {
    expect(parseCsv('name;email\nAsha;asha@example.com')).toEqual([
      ['name', 'email'],
      ['Asha', 'asha@example.com'],
    ]);
    expect(parseCsv('name\temail\nAsha\tasha@example.com')).toEqual([
      ['name', 'email'],
      ['Asha', 'asha@example.com'],
    ]);
  });
});

describe('emailsFromCsv', () => {
  it('takes the first column whose values are addresses, skipping its header', () => {
    const csv = 'Name,Email,Manager email\nAsha Rao,asha@example.com,boss@example.com\nRavi Kumar,ravi@example.com,boss@example.com\n';
    expect(emailsFromCsv(csv)).toEqual({ emails: ['asha@example.com', 'ravi@example.com'], column: 1, ignored: 0 });
  });

  it('reads a bare list of addresses with no header', () => {
    expect(emailsFromCsv('asha@example.com\r\nravi@example.com\r\n')).toEqual({ emails: ['asha@example.com', 'ravi@example.com'], column: 0, ignored: 0 });
  });

  it('counts the cells of the column that are not addresses, and keeps each address once', () => {
    const csv = 'email,team\nasha@example.com,a\nn/a,b\nASHA@example.com,c\nravi@example.com,d\n,e\n';
    expect(emailsFromCsv(csv)).toEqual({ emails: ['asha@example.com', 'ravi@example.com'], column: 0, ignored: 1 });
  });

  it('passes over a column where addresses are the exception', () => {
    const csv = 'note,email\nsee asha@example.com,asha@example.com\nhello,ravi@example.com\nbye,meera@example.com\n';
    expect(emailsFromCsv(csv).column).toBe(1);
    const stray = 'note,contact\nfoo,asha@example.com\nbar,ravi@example.com\nx@y.io,meera@example.com\nbaz,kabir@example.com\n';
    expect(emailsFromCsv(stray)).toEqual({ emails: ['asha@example.com', 'ravi@example.com', 'meera@example.com', 'kabir@example.com'], column: 1, ignored: 0 });
  });

  it('finds nothing in a file without addresses', () => {
    expect(emailsFromCsv('name,team\nAsha,a\n')).toEqual({ emails: [], column: null, ignored: 0 });
    expect(emailsFromCsv('')).toEqual({ emails: [], column: null, ignored: 0 });
  });
});
