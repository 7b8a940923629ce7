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

/**
 * Streams CSV records from a byte stream: reads just enough to see the header line,
 * picks the delimiter, then parses the rest as it arrives (UTF-8, optional BOM, quoted
 * fields with delimiters and newlines). Nothing but the current records is held.
 */
export async function openCsv(source: AsyncIterable<Buffer>): Promise<{ delimiter: string; records: Parser }> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  while (!head.includes(0x0a) && head.length < MAX_HEADER_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, next.value]);
  }
  const newline = head.indexOf(0x0a);
  const headerLine = head.subarray(0, newline === -1 ? head.length : newline).toString('utf8').replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(headerLine);
  const records = parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 });
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
