/**
 * The text of every CSV file the dashboard writes (downloadCsv in ./csv-download.ts hands it to
 * the browser: an import's or a do-not-call upload's row errors). Free of the DOM, so the
 * service's tests check it (test/ui/csv.test.ts).
 *
 * A spreadsheet opening a CSV runs a cell that starts with `=`, `+`, `-` or `@` as a formula
 * (`=HYPERLINK(...)` sends a click, with data, anywhere; DDE formulas start programs), and a
 * leading tab or carriage return can hide such a start. The cells come from uploaded files, so each
 * such cell is written with a single quote in front, as OWASP's CSV-injection advice says: the
 * spreadsheet shows it as text. That includes phone numbers such as `+12125550100`: their `'` is
 * the price of not guessing which `+` or `-` cells are harmless, and it also keeps the spreadsheet
 * from reading the number as a sum and dropping the `+`. Quoting a cell (for commas, quotes and line
 * breaks) does not stop a formula, which is why both are done.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null | undefined;

/** One cell: neutralised when a spreadsheet would run it, quoted when it holds a comma, quote or line break. */
export function csvCell(value: CsvValue): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The whole file: a header line, then one line per row, CRLF-terminated (RFC 4180). */
export const csvText = (header: string[], rows: CsvValue[][]) =>
  [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
