import { describe, expect, it } from 'vitest';
import { initialMapping, previewCsv, previewFile } from '../../ui/src/pages/contacts/csv-preview.ts';

// The import dialog's preview must read a file as the service will (src/modules/imports/csv-reader.ts).
describe('the import dialog\'s CSV preview', () => {
  it('reads quoted fields with delimiters, doubled quotes, newlines and a quote inside an unquoted field', () => {
    const p = previewCsv('\uFEFFphone,name,note\r\n+12125550100,"Smith, Ann","said ""hi""\nthen"\r\n+12125550101,Jo "The Boss" Smith,x\r\n\r\n');
    expect(p).toEqual({ delimiter: ',', header: ['phone', 'name', 'note'], rows: [['+12125550100', 'Smith, Ann', 'said "hi"\nthen'], ['+12125550101', 'Jo "The Boss" Smith', 'x']] });
  });

  it('detects ; and tab, and honours a sep= line after a BOM (not taken as the header)', () => {
    expect(previewCsv('Name;Tel\nAnn;1\n')).toMatchObject({ delimiter: ';', header: ['Name', 'Tel'], rows: [['Ann', '1']] });
    expect(previewCsv('a\tb\tc,d\n1\t2\t3,4')).toMatchObject({ delimiter: '\t', header: ['a', 'b', 'c,d'], rows: [['1', '2', '3,4']] });
    expect(previewCsv('\uFEFFsep=;\r\nphone;name, first\r\n1;Ann, A\r\n')).toEqual({ delimiter: ';', header: ['phone', 'name, first'], rows: [['1', 'Ann, A']] });
  });

  it('keeps the first rows only and refuses binary data', async () => {
    expect(previewCsv(`phone\n${Array.from({ length: 50 }, (_, i) => i).join('\n')}`, 3).rows).toEqual([['0'], ['1'], ['2']]);
    await expect(previewFile(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00])]))).rejects.toThrow(/not a CSV/);
  });

  it('preselects the last mapping when the header has it, else a header that looks like a phone or zone column', () => {
    expect(initialMapping(['Name', 'Mobile', 'Time Zone'], null)).toEqual({ phone: 'Mobile', timezone: 'Time Zone' });
    expect(initialMapping(['Name', 'Mobile', 'TZ', 'Cell'], { phone: 'Cell', timezone: 'Gone' })).toEqual({ phone: 'Cell', timezone: 'TZ' });
    expect(initialMapping(['a', 'b'], null)).toEqual({ phone: 'a', timezone: null });
  });
});
