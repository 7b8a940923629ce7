import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { multipartBody, usPhone, waitForTask } from '../../../test/helpers/imports.ts';
import { createImportWorker } from './imports.worker.ts';
import { headerKey, mapColumns } from './csv-columns.ts';
import type { BackgroundWorker } from '../../workers.ts';

/** CSV headers become contact_data keys the placeholders can name, and rows get their number's zone. */
let t: TestApp;
let alice: Account;
let worker: BackgroundWorker;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  worker = createImportWorker(t.deps, { pollMs: 20 });
  worker.start();
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

async function upload(fields: Record<string, string>, content: string) {
  const { payload, headers } = multipartBody(fields, { name: 'contacts.csv', content });
  return t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: { ...alice.headers, ...headers }, payload });
}
const contactsOf = (campaignId: number) =>
  t.deps.db.selectFrom('contacts').select(['phone_number', 'contact_data', 'timezone']).where('campaign_id', '=', campaignId).orderBy('phone_number').execute();

describe('CSV header keys', () => {
  it('stores normalised keys and shows the mapping in the create answer and the task', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await upload({ campaign_id: String(campaign.id) }, `Name, First Name ,phone,E-mail\nSmith,Ann,${usPhone(1)},ann@example.com\n`);
    expect(res.statusCode).toBe(200);
    const columns = [
      { header: 'Name', key: 'name' },
      { header: ' First Name ', key: 'first_name' },
      { header: 'E-mail', key: 'e_mail' },
    ];
    expect(res.json()).toMatchObject({ total: 1, columns });
    const done = await waitForTask(t, alice.headers, res.json().task_id);
    expect(done).toMatchObject({ status: 'completed', created: 1, columns });
    expect((await contactsOf(campaign.id))[0]!.contact_data).toEqual({ name: 'Smith', first_name: 'Ann', e_mail: 'ann@example.com' });
  });

  it('keeps every colliding header under a suffixed key, never one over another', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await upload({ campaign_id: String(campaign.id) }, `Name,phone,name,NAME ,Name_2,,#\na,${usPhone(2)},b,c,d,e,f\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json().columns).toEqual([
      { header: 'Name', key: 'name' },
      { header: 'name', key: 'name_3' },
      { header: 'NAME ', key: 'name_4' },
      { header: 'Name_2', key: 'name_2' },
      { header: '', key: 'column_6' },
      { header: '#', key: 'column_7' },
    ]);
    await waitForTask(t, alice.headers, res.json().task_id);
    expect((await contactsOf(campaign.id))[0]!.contact_data).toEqual({ name: 'a', name_3: 'b', name_4: 'c', name_2: 'd', column_6: 'e', column_7: 'f' });
  });

  it('finds the phone column by its key and leaves the phone and zone columns out of the mapping', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await upload({ campaign_id: String(campaign.id), phone_column: 'phone_number', timezone_column: 'time zone' }, `Phone Number,Time-Zone,Note\n${usPhone(3)},Europe/Paris,x\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json().columns).toEqual([{ header: 'Note', key: 'note' }]);
    await waitForTask(t, alice.headers, res.json().task_id);
    expect(await contactsOf(campaign.id)).toEqual([{ phone_number: usPhone(3), contact_data: { note: 'x' }, timezone: 'Europe/Paris' }]);
  });

  it('refuses a header that cannot be stored with 422, leaving no task', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const before = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await upload({ campaign_id: String(campaign.id) }, `phone,no\u0000te\n${usPhone(4)},x\n`);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].msg).toContain('Header of column 2');
    const after = await t.deps.db.selectFrom('import_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('normalises punctuation and any script, and names a header with no word by its position', () => {
    expect(headerKey('  Tel. (home)  ', 0)).toBe('tel_home');
    expect(headerKey('_id', 0)).toBe('_id');
    expect(headerKey('Straße Nr', 0)).toBe('straße_nr');
    expect(headerKey(' - ', 4)).toBe('column_5');
    expect(mapColumns(['a', 'A', 'a_2', 'a'], [0, 1, 2, 3]).map((c) => c.key)).toEqual(['a', 'a_3', 'a_2', 'a_4']);
  });
});

describe('CSV time zones', () => {
  it('gives a row without a zone column its number\'s zone, the one POST /api/v1/contacts/ gives', async () => {
    const { campaigns: [imported] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { campaigns: [viaApi] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const numbers = [usPhone(5), '+13102000006', '+18002000007'];
    const res = await upload({ campaign_id: String(imported.id) }, `phone\n${numbers.join('\n')}\n`);
    await waitForTask(t, alice.headers, res.json().task_id);
    const fromApi: Record<string, string | null> = {};
    for (const phone_number of numbers) {
      const created = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { campaign_id: viaApi.id, phone_number, status: 'new' } });
      fromApi[created.json().phone_number] = created.json().timezone;
    }
    expect(fromApi).toEqual({ [usPhone(5)]: 'America/New_York', '+13102000006': 'America/Los_Angeles', '+18002000007': null });
    expect(Object.fromEntries((await contactsOf(imported.id)).map((c) => [c.phone_number, c.timezone]))).toEqual(fromApi);
  });
});
