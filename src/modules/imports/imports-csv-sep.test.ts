import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import type { Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { multipartBody, usPhone, waitForTask, appWithImportWorker, type ImportScene } from '../../../test/helpers/imports.ts';
import { sepLineDelimiter } from './csv-reader.ts';

// Excel's `sep=` first line names the separator; it is an instruction, never the header.
let scene: ImportScene;
let t: TestApp;
let alice: Account;

beforeAll(async () => void ({ t, alice } = scene = await appWithImportWorker()));
afterAll(() => scene?.close());

async function upload(url: string, fields: Record<string, string>, content: string | Buffer) {
  const { payload, headers } = multipartBody(fields, { name: 'contacts.csv', content });
  return t.request({ method: 'POST', url, headers: { ...alice.headers, ...headers }, payload });
}
const contactsOf = (campaignId: number) =>
  t.deps.db.selectFrom('contacts').select(['phone_number', 'contact_data']).where('campaign_id', '=', campaignId).orderBy('id').execute();

async function importContacts(csv: string) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const res = await upload('/api/v1/contacts/import/csv', { campaign_id: String(campaign.id) }, csv);
  expect(res.statusCode, res.body).toBe(200);
  const done = await waitForTask(t, alice.headers, res.json().task_id);
  return { done, columns: res.json().columns, contacts: await contactsOf(campaign.id) };
}

describe('Excel sep= line', () => {
  it('reads the separator it names, including a written-out \\t, and nothing else', () => {
    expect(sepLineDelimiter('sep=;')).toBe(';');
    expect(sepLineDelimiter('SEP=,\r')).toBe(',');
    expect(sepLineDelimiter('sep=\t')).toBe('\t');
    expect(sepLineDelimiter('sep=\\t')).toBe('\t');
    expect(sepLineDelimiter('\uFEFFsep=|')).toBe('|');
    expect(sepLineDelimiter('sep=;;')).toBeNull();
    expect(sepLineDelimiter('phone,sep')).toBeNull();
  });

  it('imports `;`-separated rows after a sep=; line, which is not taken as the header', async () => {
    // The header alone would be read as comma-separated (a comma, no semicolon): sep= decides.
    const csv = `sep=;\r\nphone;name, first\r\n${usPhone(40)};Ann, A\r\n${usPhone(41)};Bob\r\n`;
    const { done, columns, contacts } = await importContacts(csv);
    expect(done).toMatchObject({ status: 'completed', total: 2, created: 2 });
    expect(columns).toEqual([{ header: 'name, first', key: 'name_first' }]);
    expect(contacts).toEqual([
      { phone_number: usPhone(40), contact_data: { name_first: 'Ann, A' } },
      { phone_number: usPhone(41), contact_data: { name_first: 'Bob' } },
    ]);
  });

  it('honours the sep= line after a UTF-8 BOM, and a tab separator', async () => {
    const bom = await importContacts(`\uFEFFsep=;\nphone;city\n${usPhone(42)};Paris\n`);
    expect(bom.contacts).toEqual([{ phone_number: usPhone(42), contact_data: { city: 'Paris' } }]);
    const tab = await importContacts(`sep=\t\nphone\tcity;zone\n${usPhone(43)}\tLyon;1\n`);
    expect(tab.contacts).toEqual([{ phone_number: usPhone(43), contact_data: { city_zone: 'Lyon;1' } }]);
  });

  it('answers 422 for a sep= line with no header after it, storing nothing', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const before = await t.deps.db.selectFrom('import_tasks').select('id').execute();
    const res = await upload('/api/v1/contacts/import/csv', { campaign_id: String(campaign.id) }, 'sep=;\r\n');
    expect(res.statusCode, res.body).toBe(422);
    expect(await t.deps.db.selectFrom('import_tasks').select('id').execute()).toEqual(before);
  });

  it('is honoured by the do-not-call CSV upload too', async () => {
    const res = await upload('/api/v1/suppressions/import/csv', {}, `sep=;\nphone_number;reason\n${usPhone(44)};asked, politely\n`);
    expect(res.statusCode, res.body).toBeLessThan(300);
    const deadline = Date.now() + 10_000;
    let row: { reason: string | null } | undefined;
    while (!row && Date.now() < deadline) {
      row = await t.deps.db.selectFrom('suppressions').select('reason').where('owner_id', '=', alice.id).where('phone_number', '=', usPhone(44)).executeTakeFirst();
      if (!row) await new Promise((r) => setTimeout(r, 50));
    }
    expect(row).toEqual({ reason: 'asked, politely' });
  });
});
