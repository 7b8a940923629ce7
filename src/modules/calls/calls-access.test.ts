import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { nextPhone, seed, type Seeded } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
/** A campaign with one contact and its calls (ids oldest first in `callIds`). */
type Scenario = Seeded & { campaign: Seeded['campaigns'][number]; contact: Seeded['contacts'][number]; callIds: number[] };
let granted: Scenario;
let hidden: Scenario;
let bobs: Scenario;
let subHeaders: Record<string, string>;

const shared = { call_data: { topic: 'shared-secret' }, status: 'finished' as const };

async function campaignWithCalls(owner: Account, calls: (typeof shared)[]): Promise<Scenario> {
  const phone = nextPhone();
  const s = await seed(t.deps.db, { campaigns: [{ owner }], contacts: [{ campaign: 0, phone_number: phone }], calls: calls.map((c) => ({ ...c, contact: 0, to_number: phone })) });
  return { ...s, campaign: s.campaigns[0]!, contact: s.contacts[0]!, callIds: s.calls.map((c) => c.id) };
}

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t)];
  granted = await campaignWithCalls(alice, [shared, shared]);
  hidden = await campaignWithCalls(alice, [shared]);
  bobs = await campaignWithCalls(bob, [shared]);
  subHeaders = (await createSubUser(t, alice.id, [granted.campaign.id])).headers;
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string>) => t.request({ method: 'GET', url, headers });
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((c) => c.id);

describe('another account', () => {
  it("gets 403 for the account's call and 404 for an unknown one", async () => {
    const res = await get(`/api/v1/calls/${granted.callIds[0]}`, bob.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Not enough permissions' });
    expect((await get('/api/v1/calls/999999', bob.headers)).statusCode).toBe(404);
  });

  it("never lists or counts the account's calls, whatever the filters", async () => {
    const aliceCall = granted.callIds[0]!;
    const cases: [string, number[]][] = [
      ['', bobs.callIds],
      ['call_data=shared-secret', bobs.callIds],
      [`campaign_id=${granted.campaign.id}`, []],
      [`call_id=${aliceCall}`, []],
      [`contact_id=${granted.contact.id}`, []],
      [`phone_number=${encodeURIComponent(granted.contact.phone_number)}`, []],
    ];
    for (const [query, expected] of cases) {
      const res = await get(`/api/v1/calls/?${query}`, bob.headers);
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual(expected);
      expect(res.json().count).toBe(expected.length);
      expect(res.json().pagination.total_count).toBe(expected.length);
    }
  });
});

describe('a sub-user', () => {
  it('lists, counts and reads only calls of granted campaigns', async () => {
    const res = await get('/api/v1/calls/?call_data=shared', subHeaders);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([...granted.callIds].reverse());
    expect(res.json().count).toBe(2);
    expect((await get(`/api/v1/calls/?campaign_id=${hidden.campaign.id}`, subHeaders)).json().count).toBe(0);
    expect((await get(`/api/v1/calls/${granted.callIds[0]}`, subHeaders)).statusCode).toBe(200);
    expect((await get(`/api/v1/calls/${hidden.callIds[0]}`, subHeaders)).statusCode).toBe(403);
    expect((await get(`/api/v1/calls/${bobs.callIds[0]}`, subHeaders)).statusCode).toBe(403);
  });

  it('the account owner sees the calls of all its campaigns', async () => {
    const res = await get('/api/v1/calls/', alice.headers);
    expect(ids(res)).toEqual([...granted.callIds, ...hidden.callIds].reverse());
    expect(res.json().count).toBe(3);
  });
});

describe('without credentials', () => {
  it('answers 401 on both calls operations', async () => {
    for (const headers of [{}, { 'x-api-key': 'vck_nope' }, bearer('x.y.z')] as Record<string, string>[]) {
      expect((await get('/api/v1/calls/', headers)).statusCode).toBe(401);
      expect((await get(`/api/v1/calls/${granted.callIds[0]}`, headers)).statusCode).toBe(401);
    }
  });
});
