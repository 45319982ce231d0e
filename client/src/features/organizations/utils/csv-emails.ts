import { looksLikeEmail, uniqueEmails } from './email-list';

const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter used most (outside quotes) on the first line with any text: comma by default. */
function guessDelimiter(text: string): string {
  const line = text.split(/\r\n|\n|\r/).find((row) => row.trim() !== '') ?? '';
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/**
 * Rows of cells of a CSV text (RFC 4180: quoted cells may hold delimiters, quotes doubled and
 * line breaks; CRLF, LF or CR line ends; a leading byte-order mark is dropped). Blank lines
 * are left out.
 */
export function parseCsv(input: string, delimiter = guessDelimiter(input)): string[][] {
  const text = input.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    if (row.some((value) => value.trim() !== '')) rows.push(row);
    row = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"' && cell.trim() === '') {
      // A quote opens a quoted cell only at its start; elsewhere it is a plain character.
      cell = '';
      quoted = true;
    } else if (char === delimiter) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

export type CsvEmails = {
  /** The addresses of the email column, each once, in file order. */
  emails: string[];
  /** The email column's index (0 is the first), or null when no column holds addresses. */
  column: number | null;
  /** Cells of that column (a header aside) that are not addresses, left out. */
  ignored: number;
};

/**
 * The invitees of a CSV file: the first column whose values look like email addresses (most
 * of its filled cells are addresses; a first row that is not one is taken for its header).
 */
export function emailsFromCsv(text: string): CsvEmails {
  const rows = parseCsv(text);
  const width = Math.max(0, ...rows.map((row) => row.length));
  for (let column = 0; column < width; column += 1) {
    const cells = rows.map((row) => (row[column] ?? '').trim());
    const header = cells[0] !== undefined && !looksLikeEmail(cells[0]) ? 1 : 0;
    const filled = cells.slice(header).filter((cell) => cell !== '');
    const emails = filled.filter(looksLikeEmail);
    if (emails.length > 0 && emails.length * 2 >= filled.length) {
      return { emails: uniqueEmails(emails), column, ignored: filled.length - emails.length };
    }
  }
  return { emails: [], column: null, ignored: 0 };
}
