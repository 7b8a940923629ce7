/**
 * A small CSV reader for the import dialog's preview: the header and the first rows of the chosen
 * file, read in the browser the way the service will read the upload (src/modules/imports/csv-reader.ts):
 * a UTF-8 BOM, Excel's `sep=` first line, the delimiter that occurs most often in the header
 * (`,` `;` tab `|`), quoted fields with delimiters, doubled quotes and newlines, and a quote inside
 * an unquoted field kept as written. Only the preview uses it: the service reads the whole file.
 */
export interface CsvPreview {
  delimiter: string;
  header: string[];
  rows: string[][];
}

const CANDIDATES = [',', ';', '\t', '|'];

/** The separator a `sep=` line names (a tab, or `\t` written out), or null when the line is not one. */
export function sepLine(line: string): string | null {
  const match = /^sep=(\\t|.)\r?$/i.exec(line);
  if (!match) return null;
  return match[1] === '\\t' ? '\t' : match[1]!;
}

/** The candidate occurring most often outside quotes in the header line; comma on a tie or none. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const c of CANDIDATES) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

/** Records of `text`, at most `limit`; blank lines are skipped as the service skips them. */
export function parseRecords(text: string, delimiter: string, limit: number): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStart = true;
  const endRecord = () => {
    record.push(field);
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    field = '';
    fieldStart = true;
  };
  for (let i = 0; i < text.length && records.length < limit; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') { field += '"'; i++; }
      else quoted = false;
    } else if (ch === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (ch === delimiter) {
      record.push(field);
      field = '';
      fieldStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else {
      field += ch;
      fieldStart = false;
    }
  }
  // The last line of a preview slice may be cut: it counts only when the whole file was read.
  if (records.length < limit && (field !== '' || record.length > 0)) endRecord();
  return records;
}

/** The preview of a file's beginning: `rows` data rows after the header. Throws when it is not text. */
export function previewCsv(text: string, rows = 5): CsvPreview {
  if (text.includes('\u0000') || text.includes('\uFFFD')) throw new Error('This file is not a CSV text file: save the sheet as "CSV UTF-8" and choose that.');
  let body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split('\n', 1)[0] ?? '';
  let delimiter = sepLine(firstLine);
  if (delimiter !== null) body = body.slice(firstLine.length + 1);
  else delimiter = detectDelimiter(firstLine);
  const [header = [], ...data] = parseRecords(body, delimiter, rows + 1);
  return { delimiter, header: header.map((h) => h.trim()), rows: data };
}

/** Reads the first 256 kB of a chosen file for the preview (a large file is not read whole). */
export async function previewFile(file: Blob, rows = 5): Promise<CsvPreview> {
  const slice = file.size > 256 * 1024 ? file.slice(0, 256 * 1024) : file;
  const text = new TextDecoder('utf-8').decode(await slice.arrayBuffer());
  // A cut multi-byte character at the end of the slice is not a sign of binary data.
  return previewCsv(file.size > 256 * 1024 ? text.replace(/\uFFFD+$/, '') : text, rows);
}

const MAPPING_KEY = 'voice-campaigns.csv-import.mapping';
// Typed here, not from the DOM library: the parser is also type-checked and tested under Node.
type KeyValue = { getItem(key: string): string | null; setItem(key: string, value: string): void };
const storage = () => (globalThis as unknown as { localStorage: KeyValue }).localStorage;
export interface CsvMapping { phone: string; timezone: string | null }

/** The mapping of the last import, if one was stored (private browsing may refuse storage). */
export function lastMapping(): CsvMapping | null {
  try {
    const raw = JSON.parse(storage().getItem(MAPPING_KEY) ?? 'null') as Partial<CsvMapping> | null;
    return raw && typeof raw.phone === 'string' ? { phone: raw.phone, timezone: typeof raw.timezone === 'string' ? raw.timezone : null } : null;
  } catch {
    return null;
  }
}

export function rememberMapping(mapping: CsvMapping): void {
  try {
    storage().setItem(MAPPING_KEY, JSON.stringify(mapping));
  } catch {
    // Storage full or refused: the next import starts from the guesses instead.
  }
}

const PHONE = /^(phone|phone_?number|tel|telephone|mobile|cell|number|msisdn)$/i;
const ZONE = /^(time_?zone|tz|zone)$/i;
const words = (h: string) => h.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '');

/** The pickers' first choice: the last mapping when this header has it, else a header that looks the part. */
export function initialMapping(header: string[], last: CsvMapping | null): CsvMapping {
  const has = (name: string | null | undefined) => (name && header.includes(name) ? name : null);
  const phone = has(last?.phone) ?? header.find((h) => PHONE.test(words(h))) ?? header[0] ?? '';
  const timezone = has(last?.timezone) ?? header.find((h) => h !== phone && ZONE.test(words(h))) ?? null;
  return { phone, timezone };
}
