import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, login, type Account } from '../../../test/helpers/factories.ts';
import { createCampaignWithCalls, createSubUser } from './calls.test-factory.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let granted: Awaited<ReturnType<typeof createCampaignWithCalls>>;
let hidden: Awaited<ReturnType<typeof createCampaignWithCalls>>;
let bobs: Awaited<ReturnType<typeof createCampaignWithCalls>>;
let subHeaders: Record<string, string>;

const shared = { call_data: { topic: 'shared-secret' }, status: 'finished' as const };

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t)];
  granted = await createCampaignWithCalls(t.deps.db, alice.id, [shared, shared]);
  hidden = await createCampaignWithCalls(t.deps.db, alice.id, [shared]);
  bobs = await createCampaignWithCalls(t.deps.db, bob.id, [shared]);
  const sub = await createSubUser(t.deps.db, alice.id, [granted.campaign.id]);
  subHeaders = bearer(await login(t, sub.username, sub.password));
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
