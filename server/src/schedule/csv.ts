/**
 * CSV as RFC 4180 writes it: CRLF after every record (the header row first), each field quoted
 * when it holds a comma, a double quote, CR or LF, with its double quotes doubled. Spreadsheets
 * run a cell that starts with '=', '+', '-' or '@' (or a tab or CR) as a formula, so such a
 * field is neutralised first by a leading single quote (OWASP's advice for CSV injection): a
 * patient named '=HYPERLINK(…)' stays a name.
 */

const CRLF = '\r\n';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised if a spreadsheet would run it, then quoted if it must be. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // Numbers the portal writes itself (ages, prices, counts) are never negative: as text they
  // are checked like any other field.
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole document: the header row, then one record per row, every line ending in CRLF. */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>,
): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}${CRLF}`).join('');
}
