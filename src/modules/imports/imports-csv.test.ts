import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import type { Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { multipartBody, usPhone, waitForTask, appWithImportWorker, type ImportScene } from '../../../test/helpers/imports.ts';
import { detectDelimiter } from './csv-reader.ts';

let scene: ImportScene;
let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = scene = await appWithImportWorker()));
afterAll(() => scene?.close());

async function upload(owner: Account, fields: Record<string, string>, content: string | Buffer, query = '') {
  const { payload, headers } = multipartBody(fields, { name: 'contacts.csv', content });
  return t.request({ method: 'POST', url: `/api/v1/contacts/import/csv${query}`, headers: { ...owner.headers, ...headers }, payload });
}
const contactsOf = (campaignId: number) =>
  t.deps.db.selectFrom('contacts').select(['phone_number', 'contact_data', 'timezone', 'creation_method']).where('campaign_id', '=', campaignId).orderBy('id').execute();

describe('CSV import', () => {
  it('reads UTF-8 with a BOM and quoted fields holding delimiters, quotes and newlines', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = '\uFEFFphone,name,note\r\n' + `${usPhone(1)},"Smith, Ann","said ""hi""\nthen left"\r\n` + `not-a-phone,Bob,x\r\n` + `${usPhone(1)},Dup,y\r\n`;
    const res = await upload(alice, { campaign_id: String(campaign.id) }, csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 3 });
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ kind: 'csv', file_name: 'contacts.csv', status: 'completed', total: 3, created: 1, failed: 1, skipped: 1 });
    expect(done.errors.map((e: { index: number }) => e.index)).toEqual([1, 2]);
    expect(await contactsOf(campaign.id)).toEqual([
      { phone_number: usPhone(1), contact_data: { name: 'Smith, Ann', note: 'said "hi"\nthen left' }, timezone: 'America/New_York', creation_method: 'import' },
    ]);
  });

  it('reads a quote inside an unquoted field as Excel and Google Sheets write it (it was a 500)', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = `phone,name\n${usPhone(30)},Jo "The Boss" Smith\n${usPhone(31)},5" screen\n`;
    const res = await upload(alice, { campaign_id: String(campaign.id) }, csv);
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', total: 2, created: 2 });
    expect((await contactsOf(campaign.id)).map((c) => c.contact_data)).toEqual([{ name: 'Jo "The Boss" Smith' }, { name: '5" screen' }]);
  });

  it('answers 422 for a file that is not text (a PNG renamed .csv), and creates no task', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\u0000\u0000\u0000\rIHDR\u0000\u0000\u0001\u0000'), Buffer.from([0xff, 0xd8, 0x00, 0x9c, 0x22, 0x0a, 0x01])]);
    const tasksBefore = await t.deps.db.selectFrom('import_tasks').select('id').execute();
    const res = await upload(alice, { campaign_id: String(campaign.id) }, png);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'file'], type: 'csv_invalid' });
    expect(res.json().detail[0].msg).toMatch(/not a CSV|text/i);
    expect(await t.deps.db.selectFrom('import_tasks').select('id').execute()).toEqual(tasksBefore);
  });

  it('fails only the row whose cell holds a NUL character (the whole task failed before)', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = `phone,note\n${usPhone(20)},fine\n${usPhone(21)},a\u0000b\n${usPhone(22)},also fine\n`;
    const res = await upload(alice, { campaign_id: String(campaign.id) }, csv);
    expect(res.statusCode).toBe(200);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', total: 3, created: 2, failed: 1 });
    expect(done.errors[0]).toMatchObject({ index: 1, phone_number: usPhone(21) });
    expect(done.errors[0].reason).toContain('NUL');
    expect((await contactsOf(campaign.id)).map((c) => c.phone_number)).toEqual([usPhone(20), usPhone(22)]);
  });

  it('detects a semicolon delimiter, uses the named phone and time-zone columns, and fails a row with an unknown zone', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = `Name;Tel;TZ;City\nAnn;${usPhone(10)};Europe/Berlin;"Berlin; Mitte"\nBob;${usPhone(11)};;Paris\nCid;${usPhone(12)};Mars/Base;X\n`;
    const res = await upload(alice, { campaign_id: String(campaign.id), phone_column: 'tel', timezone_column: 'TZ' }, csv);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ total: 3, created: 2, failed: 1 });
    expect(done.errors[0]).toMatchObject({ index: 2, phone_number: usPhone(12) });
    // The zone column wins over the number's zone (a New York number here); an empty cell falls back to it.
    expect(await contactsOf(campaign.id)).toEqual([
      { phone_number: usPhone(10), contact_data: { name: 'Ann', city: 'Berlin; Mitte' }, timezone: 'Europe/Berlin', creation_method: 'import' },
      { phone_number: usPhone(11), contact_data: { name: 'Bob', city: 'Paris' }, timezone: 'America/New_York', creation_method: 'import' },
    ]);
  });

  it('detects tab and pipe delimiters from the header line', () => {
    expect(detectDelimiter('phone\tname\tcity')).toBe('\t');
    expect(detectDelimiter('phone|name')).toBe('|');
    expect(detectDelimiter('"a;b",c,d')).toBe(',');
    expect(detectDelimiter('phone')).toBe(',');
  });

  it('takes the fields from the query when the file comes first, and imports a multi-chunk file exactly', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const lines = ['phone\tn'];
    for (let i = 0; i < 4500; i++) lines.push(`${usPhone(1000 + i)}\t${i}`);
    const res = await upload(alice, {}, lines.join('\n'), `?campaign_id=${campaign.id}`);
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ total: 4500, processed: 4500, created: 4500, skipped: 0, failed: 0 });
    const count = await t.deps.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(4500);
  });

  it('refuses another account\'s campaign with 403 and a missing column or campaign with 422, writing nothing', async () => {
    const { campaigns: [theirs] } = await seed(t.deps.db, { campaigns: [{ owner: bob }] });
    const { campaigns: [mine] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const before = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect((await upload(alice, { campaign_id: String(theirs.id) }, `phone\n${usPhone(1)}\n`)).statusCode).toBe(403);
    const noColumn = await upload(alice, { campaign_id: String(mine.id) }, `mobile\n${usPhone(1)}\n`);
    expect(noColumn.statusCode).toBe(422);
    expect(noColumn.json().detail[0].loc).toEqual(['body', 'phone_column']);
    expect((await upload(alice, {}, `phone\n${usPhone(1)}\n`)).statusCode).toBe(422);
    expect((await upload(alice, { campaign_id: String(mine.id) }, '')).statusCode).toBe(422);
    const after = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await contactsOf(mine.id)).toEqual([]);
  });

  it('answers 415 to a JSON body and 422 to no body at all', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: alice.headers, payload: { campaign_id: 1 } });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toContain('multipart/form-data');
    const empty = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: alice.headers });
    expect(empty.statusCode).toBe(422);
  });
});
