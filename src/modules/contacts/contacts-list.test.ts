import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;

beforeAll(async () => void ({ t, alice } = await appWithAccounts()));
afterAll(() => t?.close());

const list = (query: string, url = '/api/v1/contacts/') => t.request({ method: 'GET', url: `${url}?${query}`, headers: alice.headers });
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((c) => c.id);

/** n contacts in one statement, numbered so that their order and count are known. */
async function manyContacts(campaign: { id: number; owner_id: number }, n: number) {
  await seed(t.deps.db, { contacts: Array.from({ length: n }, (_, i) => ({ campaign, phone_number: `+1628${String(5000000 + i)}`, status: 'new' })) });
}

describe('paging', () => {
  it('answers 100 contacts by default with the total count, newest first, and pages with skip and limit', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice, title: 'Big' }] });
    await manyContacts(campaign, 105);
    const res = await list(`campaign_id=${campaign.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(105);
    expect(res.json().data).toHaveLength(100);
    const all = ids(res);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(res.json().data[0].campaign_title).toBe('Big');
    const page = await list(`campaign_id=${campaign.id}&skip=2&limit=3`);
    expect(ids(page)).toEqual(all.slice(2, 5));
    expect(page.json().count).toBe(105);
    const tail = await list(`campaign_id=${campaign.id}&skip=100&limit=1000`);
    expect(tail.json().data).toHaveLength(5);
    const noSlash = await t.request({ method: 'GET', url: `/api/v1/contacts?campaign_id=${campaign.id}&limit=3`, headers: alice.headers });
    expect(ids(noSlash)).toEqual(all.slice(0, 3));
  });

  it('answers 400 contacts by default on the campaign list', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    await manyContacts(campaign, 401);
    const res = await list('', `/api/v1/contacts/campaign/${campaign.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(401);
    expect(res.json().data).toHaveLength(400);
    expect(res.json().data.every((c: { campaign_id: number }) => c.campaign_id === campaign.id)).toBe(true);
  });

  it('rejects limit 0, limit 1001 and a negative skip with 422 on both lists', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    for (const url of ['/api/v1/contacts/', `/api/v1/contacts/campaign/${campaign.id}`]) {
      for (const [query, field] of [['limit=0', 'limit'], ['limit=1001', 'limit'], ['skip=-1', 'skip'], ['limit=abc', 'limit']] as const) {
        const res = await list(query, url);
        expect(res.statusCode).toBe(422);
        expect(res.json().detail[0].loc).toEqual(['query', field]);
      }
      expect((await list('limit=1000', url)).statusCode).toBe(200);
    }
  });
});

describe('filters of GET /contacts/', () => {
  it('filters by campaign_id given as repeated keys or a comma list', async () => {
    const { campaigns: [a, b, c], contacts: [ca, cb, cc] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }, { owner: alice }, { owner: alice }],
      contacts: [{ campaign: 0 }, { campaign: 1 }, { campaign: 2 }],
    });
    for (const query of [`campaign_id=${a.id}&campaign_id=${b.id}`, `campaign_id=${a.id},${b.id}`]) {
      const res = await list(query);
      expect(ids(res)).toEqual([cb.id, ca.id]);
      expect(res.json().count).toBe(2);
    }
    expect(ids(await list(`campaign_id=${c.id}`))).toEqual([cc.id]);
  });

  it('filters by phone_number, normalising a number and matching other text as written', async () => {
    const { campaigns: [campaign], contacts: [target, other, raw] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: [{ campaign: 0, phone_number: '+14155552671' }, { campaign: 0, phone_number: '+14155552672' }, { campaign: 0, phone_number: 'ext-12' }],
    });
    for (const phone of ['+14155552671', '(415) 555-2671', '415.555.2671']) {
      expect(ids(await list(`campaign_id=${campaign.id}&phone_number=${encodeURIComponent(phone)}`))).toEqual([target.id]);
    }
    expect(ids(await list(`campaign_id=${campaign.id}&phone_number=ext-12`))).toEqual([raw.id]);
    expect(ids(await list(`campaign_id=${campaign.id}&phone_number=ext`))).toEqual([]);
    expect(ids(await list(`campaign_id=${campaign.id}`))).toContain(other.id);
  });

  it('filters by status as repeated keys or a comma list, including "in progress", and rejects unknown statuses', async () => {
    const { campaigns: [campaign], contacts: [fresh, busy, failed] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: [{ campaign: 0, status: 'new' }, { campaign: 0, status: 'in progress' }, { campaign: 0, status: 'failed' }],
    });
    for (const query of ['status=new&status=in%20progress', 'status=new,in%20progress', 'status=new,in+progress']) {
      expect(ids(await list(`campaign_id=${campaign.id}&${query}`))).toEqual([busy.id, fresh.id]);
    }
    expect(ids(await list(`campaign_id=${campaign.id}&status=failed`))).toEqual([failed.id]);
    const bad = await list(`campaign_id=${campaign.id}&status=new&status=in_progress`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc[0]).toBe('query');
    expect(bad.json().detail[0].loc[1]).toBe('status');
  });

  it('filters by created_at with both bounds included, also with an unencoded + offset', async () => {
    const { campaigns: [campaign], contacts: [c1, c2, c3] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: [{ campaign: 0, created_at: '2024-01-01T00:00:00Z' }, { campaign: 0, created_at: '2024-02-01T00:00:00Z' }, { campaign: 0, created_at: '2024-03-01T00:00:00Z' }],
    });
    const q = `campaign_id=${campaign.id}`;
    expect(ids(await list(`${q}&created_at_from=2024-02-01T00:00:00Z&created_at_to=2024-03-01T00:00:00Z`))).toEqual([c3.id, c2.id]);
    expect(ids(await list(`${q}&created_at_to=2024-02-01T00:00:00Z`))).toEqual([c2.id, c1.id]);
    expect(ids(await list(`${q}&created_at_from=2024-02-01T01:00:00+01:00`))).toEqual([c3.id, c2.id]);
    expect(ids(await list(`${q}&created_at_from=2024-02-01T00:00:01Z`))).toEqual([c3.id]);
    expect((await list(`${q}&created_at_from=yesterday`)).statusCode).toBe(422);
  });

  it('filters by calls_attempts with both bounds included', async () => {
    const { campaigns: [campaign], contacts: [c0, c2, c5] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }],
      contacts: [{ campaign: 0, calls_attempts: 0 }, { campaign: 0, calls_attempts: 2 }, { campaign: 0, calls_attempts: 5 }],
    });
    const q = `campaign_id=${campaign.id}`;
    expect(ids(await list(`${q}&calls_attempts_from=2&calls_attempts_to=5`))).toEqual([c5.id, c2.id]);
    expect(ids(await list(`${q}&calls_attempts_to=2`))).toEqual([c2.id, c0.id]);
    expect(ids(await list(`${q}&calls_attempts_from=3`))).toEqual([c5.id]);
    expect((await list(`${q}&calls_attempts_from=two`)).statusCode).toBe(422);
  });
});

describe('filters of GET /contacts/campaign/{campaign_id}', () => {
  it('lists only that campaign and filters by phone_number, status and calls_attempts', async () => {
    const { campaigns: [campaign], contacts: [a, b] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice }, { owner: alice }],
      contacts: [
        { campaign: 0, phone_number: '+14155550001', status: 'busy', calls_attempts: 1 },
        { campaign: 0, phone_number: '+14155550002', status: 'no_answer', calls_attempts: 3 },
        { campaign: 1, phone_number: '+14155550001', status: 'busy', calls_attempts: 1 },
      ],
    });
    const url = `/api/v1/contacts/campaign/${campaign.id}`;
    const all = await list('', url);
    expect(ids(all)).toEqual([b.id, a.id]);
    expect(all.json().count).toBe(2);
    expect(ids(await list('phone_number=4155550001', url))).toEqual([a.id]);
    expect(ids(await list('status=no_answer,busy', url))).toEqual([b.id, a.id]);
    expect(ids(await list('status=no_answer', url))).toEqual([b.id]);
    expect(ids(await list('calls_attempts_from=1&calls_attempts_to=1', url))).toEqual([a.id]);
    expect(ids(await list('calls_attempts_from=2&calls_attempts_to=3', url))).toEqual([b.id]);
    expect((await list('status=unknown', url)).statusCode).toBe(422);
  });

  it('answers 404 for an unknown campaign', async () => {
    const res = await list('', '/api/v1/contacts/campaign/987654');
    expect(res.statusCode).toBe(404);
    expect(typeof res.json().detail).toBe('string');
  });
});
