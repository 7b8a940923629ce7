import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithImportWorker, multipartBody, usPhone, waitForTask, type ImportScene } from './helpers/imports.ts';
import { seed } from './helpers/seed.ts';
import { LIST_MAX_BYTES } from '../src/shared/list-budget.ts';
import { CONTACT_DATA_MAX_BYTES } from '../src/shared/contact-data-limit.ts';

/**
 * Memory stays flat whatever the rows hold (issue 23): a list answer never passes the byte
 * budget, holds whole items only, and its count and pagination stay true; contact_data over its
 * limit is refused on every way contacts come in, naming the field, and nothing is written.
 */
let scene: ImportScene;
beforeAll(async () => void (scene = await appWithImportWorker()));
afterAll(() => scene?.close());

const bigData = (i: number, bytes: number) => ({ n: i, notes: 'x'.repeat(bytes) });

async function get(url: string) {
  const res = await scene.t.request({ method: 'GET', url, headers: scene.alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return { bytes: Buffer.byteLength(res.body), body: res.json() };
}

describe('list answers stay within the byte budget', () => {
  it('ends a page of large contacts at the budget with whole items, a true count, and skip + received reaching every contact once', async () => {
    const { alice, t } = scene;
    // 100 contacts of 60 KB (stored before any limit, as the attack did): 6 MB, more than one answer may hold.
    const { campaigns: [campaign], contacts } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: Array.from({ length: 100 }, (_, i) => ({ campaign: 0, contact_data: bigData(i, 60_000) })),
    });
    for (const url of [`/api/v1/contacts/?limit=1000&campaign_id=${campaign.id}`, `/api/v1/contacts/campaign/${campaign.id}?limit=1000`]) {
      const first = await get(url);
      expect(first.bytes).toBeLessThanOrEqual(LIST_MAX_BYTES);
      expect(first.body.count).toBe(100);
      expect(first.body.data.length).toBeGreaterThan(50);
      expect(first.body.data.length).toBeLessThan(100);
    }
    const seen: number[] = [];
    for (let skip = 0; skip < 100; ) {
      const page = await get(`/api/v1/contacts/campaign/${campaign.id}?limit=1000&skip=${skip}`);
      expect(page.bytes).toBeLessThanOrEqual(LIST_MAX_BYTES);
      expect(page.body.count).toBe(100);
      for (const c of page.body.data) expect(c.contact_data).toEqual(bigData(c.contact_data.n, 60_000)); // whole
      seen.push(...page.body.data.map((c: { id: number }) => c.id));
      skip += page.body.data.length;
    }
    expect(seen).toEqual(contacts.map((c) => c.id).sort((a, b) => b - a));
  });

  it('cuts the calls list too, keeping its pagination fields as documented, and always answers at least one item', async () => {
    const { alice, t } = scene;
    const { campaigns: [campaign] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: [{ campaign: 0 }],
      calls: [
        ...Array.from({ length: 60 }, () => ({ contact: 0, status: 'finished' as const, call_data: { transcript: 'y'.repeat(100_000) } })),
        { contact: 0, status: 'finished' as const, call_data: { transcript: 'z'.repeat(LIST_MAX_BYTES + 1000) } }, // newest: alone over the budget
      ],
    });
    const alone = await get(`/api/v1/calls/?limit=1000&campaign_id=${campaign.id}`);
    expect(alone.body.data).toHaveLength(1);
    expect(alone.body.data[0].call_data.transcript).toHaveLength(LIST_MAX_BYTES + 1000);
    const next = await get(`/api/v1/calls/?limit=1000&skip=1&campaign_id=${campaign.id}`);
    expect(next.bytes).toBeLessThanOrEqual(LIST_MAX_BYTES);
    expect(next.body.data.length).toBeGreaterThan(30);
    expect(next.body.data.length).toBeLessThan(60);
    expect(next.body.count).toBe(61);
    expect(next.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 61 });
    for (const call of next.body.data) expect(call.call_data.transcript).toHaveLength(100_000);
  });
});

describe(`contact_data is at most ${CONTACT_DATA_MAX_BYTES} bytes on every intake`, () => {
  const tooBig = { notes: 'x'.repeat(CONTACT_DATA_MAX_BYTES) };
  const contactsIn = (campaignId: number) => scene.t.deps.db.selectFrom('contacts').select(['phone_number', 'contact_data']).where('campaign_id', '=', campaignId).execute();

  it('refuses it with a 422 naming the field on create, update and bulk import, writing nothing', async () => {
    const { alice, t } = scene;
    const { campaigns: [campaign], contacts: [existing] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0, contact_data: { a: 1 } }] });
    const send = (method: 'POST' | 'PUT', url: string, payload: unknown) => t.request({ method, url, headers: alice.headers, payload: payload as object });

    const created = await send('POST', '/api/v1/contacts/', { status: 'new', campaign_id: campaign.id, phone_number: usPhone(900), contact_data: tooBig });
    expect(created.statusCode).toBe(422);
    expect(created.json().detail[0].loc).toEqual(['body', 'contact_data']);
    const updated = await send('PUT', `/api/v1/contacts/${existing.id}`, { contact_data: tooBig });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().detail[0].loc).toEqual(['body', 'contact_data']);
    const bulk = await send('POST', '/api/v1/contacts/bulk', [
      { phone_number: usPhone(901), campaign_id: campaign.id, contact_data: { ok: true } },
      { phone_number: usPhone(902), campaign_id: campaign.id, contact_data: tooBig },
    ]);
    expect(bulk.statusCode).toBe(422);
    expect(bulk.json().detail[0].loc).toEqual(['body', 1, 'contact_data']);
    expect(await contactsIn(campaign.id)).toEqual([{ phone_number: existing.phone_number, contact_data: { a: 1 } }]);
    expect(await t.deps.db.selectFrom('import_tasks').select('id').where('owner_id', '=', alice.id).execute()).toEqual([]);

    // Just under the limit is accepted.
    const fits = { notes: 'x'.repeat(CONTACT_DATA_MAX_BYTES - 20) };
    expect((await send('POST', '/api/v1/contacts/', { status: 'new', campaign_id: campaign.id, phone_number: usPhone(903), contact_data: fits })).statusCode).toBe(200);
  });

  it('refuses it on the integration endpoint, also when a merge into the existing contact would pass it', async () => {
    const { alice, t } = scene;
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const made = await t.request({ method: 'POST', url: '/api/v1/integrations/contact-creation', headers: alice.headers, payload: { name: 'Form', campaign_ids: [campaign.id] } });
    const { token } = made.json();
    const post = (contact_data: unknown) => t.request({
      method: 'POST', url: '/api/v1/contact-creation-integration/create-contact', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ phone: usPhone(910), contact_data }),
    });
    const refused = await post(tooBig);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail[0].loc).toEqual(['body', 'contact_data']);
    const half = 'h'.repeat(CONTACT_DATA_MAX_BYTES / 2);
    expect((await post({ first: half })).statusCode).toBe(200);
    const merged = await post({ second: half, third: 'x' });
    expect(merged.statusCode).toBe(422);
    expect(merged.json().detail[0].loc).toEqual(['body', 'contact_data']);
    expect(await contactsIn(campaign.id)).toEqual([{ phone_number: usPhone(910), contact_data: { first: half } }]);
  });

  it('fails a CSV row over the limit alone, saying why, and imports the others', async () => {
    const { alice, t } = scene;
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const csv = ['phone,notes', `${usPhone(920)},short`, `${usPhone(921)},${'x'.repeat(CONTACT_DATA_MAX_BYTES)}`].join('\n');
    const { payload, headers } = multipartBody({ campaign_id: String(campaign.id) }, { name: 'c.csv', content: csv });
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: { ...alice.headers, ...headers }, payload });
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, alice.headers, res.json().task_id);
    expect(task.errors).toEqual([expect.objectContaining({ index: 1, reason: expect.stringContaining('contact_data is') })]);
    expect((await contactsIn(campaign.id)).map((c) => c.phone_number)).toEqual([usPhone(920)]);
  });
});
