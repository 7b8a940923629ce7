/**
 * Hostile CSV files and multipart bodies for the CSV upload routes (contacts import, do-not-call
 * list): what a spreadsheet, a wrong file or a broken client sends. Every one must be answered
 * without a 5xx, and a refused one must leave nothing stored (the fuzzer's snapshot checks that).
 */
export interface HostileBody { label: string; type: string; data: Buffer }

/** mulberry32: a few seeded bytes without a dependency; the same seed gives the same files. */
function bytes(seed: number, n: number): Buffer {
  let a = seed >>> 0;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

const PHONE = '+12125550199';
const b = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p, 'utf8'))));

/** File contents: header `phone` so the contacts route reads past the header into the rows. */
export function hostileCsvFiles(seed: number): [string, Buffer][] {
  const png = b(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), bytes(seed, 512));
  return [
    ['random bytes', bytes(seed + 1, 2048)],
    ['random bytes after a good header', b('phone,name\n', bytes(seed + 2, 4096))],
    ['PNG named .csv', png],
    ['xlsx (zip) named .csv', b(Buffer.from([0x50, 0x4b, 0x03, 0x04]), bytes(seed + 3, 300))],
    ['unterminated quote', b(`phone,name\n${PHONE},"Jo\n${PHONE},Ann\n`)],
    ['quote then text', b(`phone,name\n${PHONE},"Jo"Smith\n`)],
    ['quote in the header', b(`"phone,name\n${PHONE},x\n`)],
    ['huge quoted field (1.5 MB)', b(`phone,name\n${PHONE},"`, 'x'.repeat(1_500_000), '"\n')],
    ['huge unquoted field (1.5 MB)', b(`phone,name\n${PHONE},`, 'y'.repeat(1_500_000), '\n')],
    ['huge header without a newline (1.2 MB)', b('phone,', 'h'.repeat(1_200_000))],
    ['NUL in the header', b(`pho\u0000ne,name\n${PHONE},x\n`)],
    ['NUL in a row', b(`phone,name\n${PHONE},a\u0000b\n`)],
    ['only NULs', Buffer.alloc(4096)],
    ['invalid UTF-8 in a row', b(`phone,name\n${PHONE},`, Buffer.from([0xff, 0xfe, 0xc3]), '\n')],
    ['lone surrogate (CESU) in the header', b('phone,', Buffer.from([0xed, 0xa0, 0x80]), `\n${PHONE},x\n`)],
    ['mixed separators', b(`phone;name,city\tzip|x\n${PHONE},Ann;Paris\t1|2\n${PHONE};Bob\n`)],
    ['CR-only line ends', b(`phone,name\r${PHONE},Ann\r${PHONE},Bob\r`)],
    ['10,000 columns', b(Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(','), `,phone\n${PHONE}\n`)],
    ['BOM only', Buffer.from([0xef, 0xbb, 0xbf])],
    ['sep= line only', b('sep=;')],
    ['sep= with nothing named', b(`sep=\nphone\n${PHONE}\n`)],
    ['sep= naming a quote', b(`sep="\nphone"name\n${PHONE}"x\n`)],
    ['sep= naming a newline-ish CR', b(`sep=\r\r\nphone\n${PHONE}\n`)],
    ['BOM and sep= then binary', b('\uFEFFsep=;\n', bytes(seed + 4, 256))],
    ['blank lines only', b('\n\n\r\n\n')],
  ];
}

const part = (boundary: string, head: string, value: string | Buffer) => b(`--${boundary}\r\n${head}\r\n\r\n`, value, '\r\n');
const filePart = (boundary: string, field: string, data: Buffer, filename = 'c.csv') =>
  part(boundary, `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv`, data);

/**
 * Whole bodies: each hostile file in a correct multipart body, and broken multipart framing
 * around a good file (no boundary, a boundary the body does not use, headerless parts, ...).
 */
export function hostileCsvBodies(seed: number, fields: [string, string][], fileField: string, boundary: string): HostileBody[] {
  const type = `multipart/form-data; boundary=${boundary}`;
  const plain = fields.map(([k, v]) => part(boundary, `Content-Disposition: form-data; name="${k}"`, v));
  const good = b(`phone\n${PHONE}\n`);
  const wrap = (...parts: Buffer[]) => b(...plain, ...parts, `--${boundary}--\r\n`);
  const files = hostileCsvFiles(seed).map(([label, data]): HostileBody => ({ label: `csv: ${label}`, type, data: wrap(filePart(boundary, fileField, data)) }));
  return [
    ...files,
    { label: 'multipart: missing boundary, hostile file', type: 'multipart/form-data', data: wrap(filePart(boundary, fileField, bytes(seed + 5, 512))) },
    { label: 'multipart: empty boundary', type: 'multipart/form-data; boundary=', data: wrap(filePart(boundary, fileField, good)) },
    { label: 'multipart: boundary of 200 characters', type: `multipart/form-data; boundary=${'b'.repeat(200)}`, data: wrap(filePart(boundary, fileField, good)) },
    { label: 'multipart: boundary never used', type, data: b(`phone\n${PHONE}\n`) },
    { label: 'multipart: random bytes as the body', type, data: bytes(seed + 6, 4096) },
    { label: 'multipart: part without headers', type, data: wrap(b(`--${boundary}\r\n\r\n`, good, '\r\n')) },
    { label: 'multipart: part header without a colon', type, data: wrap(part(boundary, 'garbage header line', good)) },
    { label: 'multipart: file part with no name', type, data: wrap(part(boundary, 'Content-Disposition: form-data; filename="c.csv"', good)) },
    { label: 'multipart: filename with NUL and ../', type, data: wrap(filePart(boundary, fileField, good, '../\u0000evil.csv')) },
    { label: 'multipart: filename of 10,000 characters', type, data: wrap(filePart(boundary, fileField, good, `${'n'.repeat(10_000)}.csv`)) },
    { label: 'multipart: file cut off mid-part', type, data: b(...plain, `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="c.csv"\r\n\r\nphone\n${PHONE},"open`) },
    { label: 'multipart: headers never end', type, data: b(...plain, `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="c.csv"\r\n`, 'X-Pad: y\r\n'.repeat(2000)) },
  ];
}
