import { Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';

const CANDIDATES = [',', ';', '\t', '|'] as const;
// A header line longer than this is not a CSV header.
const MAX_HEADER_BYTES = 1024 * 1024;

/** The delimiter that occurs most often outside quotes in the header line; comma on a tie or none. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(CANDIDATES.map((c) => [c, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const c of CANDIDATES) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

/** A file whose header line is not text: a picture or a spreadsheet renamed .csv. Callers answer 422 (code CSV_*). */
export class NotTextError extends Error {
  readonly code = 'CSV_NOT_TEXT';
  constructor() {
    super('the file is not a CSV text file (its first line holds binary data: save the sheet as CSV UTF-8 and upload that)');
  }
}

/**
 * A header line is text when it decodes as UTF-8 (a NUL in it is the header check's to name).
 * A PNG, a ZIP-based .xlsx or a legacy .xls fails in its first bytes.
 */
function isTextLine(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The separator Excel's `sep=` first line names (`sep=;`, `sep=,`, a tab, or `\t` written out),
 * or null when the line is not one. Excel writes it so a file opens the same in every locale;
 * the line is an instruction, not the header.
 */
export function sepLineDelimiter(line: string): string | null {
  const match = /^sep=(\\t|.)\r?$/i.exec(line.replace(/^\uFEFF/, ''));
  if (!match) return null;
  return match[1] === '\\t' ? '\t' : match[1]!;
}

/**
 * Streams CSV records from a byte stream: reads just enough to see the header line,
 * picks the delimiter, then parses the rest as it arrives (UTF-8, optional BOM, quoted
 * fields with delimiters and newlines). Nothing but the current records is held.
 */
export async function openCsv(source: AsyncIterable<Buffer>): Promise<{ delimiter: string; records: Parser }> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  // Reads until `head` holds a full line starting at `from` (or the file or the header limit ends).
  const readLine = async (from: number) => {
    while (head.indexOf(0x0a, from) === -1 && head.length - from < MAX_HEADER_BYTES && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else head = Buffer.concat([head, next.value]);
    }
    const newline = head.indexOf(0x0a, from);
    return head.subarray(from, newline === -1 ? head.length : newline);
  };
  let headerBytes = await readLine(0);
  if (!isTextLine(headerBytes)) throw new NotTextError();
  let delimiter = sepLineDelimiter(headerBytes.toString('utf8'));
  if (delimiter !== null) {
    // The sep= line (and a BOM before it) is dropped: the parser starts at the real header.
    head = head.subarray(headerBytes.length + 1);
    headerBytes = await readLine(0);
    if (!isTextLine(headerBytes)) throw new NotTextError();
  } else {
    delimiter = detectDelimiter(headerBytes.toString('utf8').replace(/^\uFEFF/, ''));
  }
  // relax_quotes: a quote inside an unquoted field (Jo "The Boss" Smith) is kept as written,
  // as Excel and Google Sheets write it; quoted fields still follow RFC 4180.
  const records = parse({ delimiter, bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 });
  const rest = Readable.from(
    (async function* () {
      yield head;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  );
  rest.on('error', (error) => records.destroy(error));
  rest.pipe(records);
  return { delimiter, records };
}
