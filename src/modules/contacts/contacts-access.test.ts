import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let granted: { id: number; owner_id: number };
let hidden: { id: number; owner_id: number };
let inGranted: { id: number; phone_number: string };
let inHidden: { id: number; phone_number: string };
let subHeaders: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t)];
  ({ campaigns: [granted, hidden], contacts: [inGranted, inHidden] } = await seed(t.deps.db, {
    campaigns: [{ owner: alice, title: 'Granted' }, { owner: alice, title: 'Not granted' }],
    contacts: [{ campaign: 0, phone_number: '+14155550301' }, { campaign: 1, phone_number: '+14155550302' }],
  }));
  subHeaders = (await createSubUser(t, alice.id, [granted.id])).headers;
});
afterAll(() => t?.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  t.request({ method, url, headers, ...(payload ? { payload } : {}) });

describe('another account', () => {
  it("gets 403 for the account's contacts and campaign, and 404 stays 404", async () => {
    expect((await req('GET', `/api/v1/contacts/${inGranted.id}`, bob.headers)).json()).toEqual({ detail: 'Not enough permissions' });
    expect((await req('GET', `/api/v1/contacts/${inGranted.id}`, bob.headers)).statusCode).toBe(403);
    expect((await req('PUT', `/api/v1/contacts/${inGranted.id}`, bob.headers, { status: 'failed' })).statusCode).toBe(403);
    expect((await req('DELETE', `/api/v1/contacts/${inGranted.id}`, bob.headers)).statusCode).toBe(403);
    expect((await req('GET', `/api/v1/contacts/campaign/${granted.id}`, bob.headers)).statusCode).toBe(403);
    expect((await req('POST', '/api/v1/contacts/', bob.headers, { status: 'new', campaign_id: granted.id, phone_number: '+14155550399' })).statusCode).toBe(403);
    expect((await req('GET', '/api/v1/contacts/999999', bob.headers)).statusCode).toBe(404);
    const still = await t.deps.db.selectFrom('contacts').select(['status']).where('id', '=', inGranted.id).executeTakeFirstOrThrow();
    expect(still.status).toBe('new');
    const planted = await t.deps.db.selectFrom('contacts').select('id').where('phone_number', '=', '+14155550399').execute();
    expect(planted).toEqual([]);
  });

  it('never lists or counts the account\'s contacts, whatever the filters', async () => {
    const { campaigns: [own], contacts: [mine] } = await seed(t.deps.db, { campaigns: [{ owner: bob }], contacts: [{ campaign: 0, phone_number: '+14155550301' }] });
    const cases: [string, number[]][] = [
      ['', [mine.id]],
      [`campaign_id=${granted.id}`, []],
      [`campaign_id=${granted.id},${own.id}`, [mine.id]],
      ['phone_number=%2B14155550301', [mine.id]],
      ['status=new', [mine.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await req('GET', `/api/v1/contacts/?${query}`, bob.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((c: { id: number }) => c.id)).toEqual(expected);
      expect(res.json().count).toBe(expected.length);
    }
  });
});

describe('a sub-user', () => {
  it('lists and counts only contacts of granted campaigns', async () => {
    const res = await req('GET', '/api/v1/contacts/', subHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { id: number }) => c.id)).toEqual([inGranted.id]);
    expect(res.json().count).toBe(1);
    const filtered = await req('GET', `/api/v1/contacts/?campaign_id=${hidden.id}&phone_number=${encodeURIComponent(inHidden.phone_number)}`, subHeaders);
    expect(filtered.json()).toEqual({ data: [], count: 0, count_exact: true });
    const byCampaign = await req('GET', `/api/v1/contacts/campaign/${granted.id}`, subHeaders);
    expect(byCampaign.json().count).toBe(1);
    expect((await req('GET', `/api/v1/contacts/campaign/${hidden.id}`, subHeaders)).statusCode).toBe(403);
  });

  it('reads, creates and updates contacts of granted campaigns only', async () => {
    expect((await req('GET', `/api/v1/contacts/${inGranted.id}`, subHeaders)).json().campaign_title).toBe('Granted');
    expect((await req('GET', `/api/v1/contacts/${inHidden.id}`, subHeaders)).statusCode).toBe(403);
    expect((await req('PUT', `/api/v1/contacts/${inHidden.id}`, subHeaders, { status: 'failed' })).statusCode).toBe(403);
    expect((await req('DELETE', `/api/v1/contacts/${inHidden.id}`, subHeaders)).statusCode).toBe(403);
    const updated = await req('PUT', `/api/v1/contacts/${inGranted.id}`, subHeaders, { contact_data: { by: 'sub' } });
    expect(updated.json().contact_data).toEqual({ by: 'sub' });
    expect((await req('POST', '/api/v1/contacts/', subHeaders, { status: 'new', campaign_id: hidden.id, phone_number: '+14155550310' })).statusCode).toBe(403);
    const created = await req('POST', '/api/v1/contacts/', subHeaders, { status: 'new', campaign_id: granted.id, phone_number: '+14155550310' });
    expect(created.statusCode).toBe(200);
    const row = await t.deps.db.selectFrom('contacts').select('owner_id').where('id', '=', created.json().id).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(alice.id);
  });

  it('deletes a contact of a granted campaign and the Message names the account owner and the sub_user role', async () => {
    const { contacts: [contact] } = await seed(t.deps.db, { contacts: [{ campaign: granted }] });
    const res = await req('DELETE', `/api/v1/contacts/${contact.id}`, subHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Contact deleted', user_id: alice.id, campaign_id: granted.id, contact_id: contact.id, call_id: null, role_id: 'sub_user', source: 'api' });
  });
});

describe('without credentials', () => {
  it('answers 401 on every contacts operation', async () => {
    const calls = [
      req('GET', '/api/v1/contacts/', {}),
      req('POST', '/api/v1/contacts/', {}, { status: 'new', campaign_id: granted.id, phone_number: '+14155550320' }),
      req('GET', `/api/v1/contacts/campaign/${granted.id}`, {}),
      req('GET', `/api/v1/contacts/${inGranted.id}`, {}),
      req('PUT', `/api/v1/contacts/${inGranted.id}`, { 'x-api-key': 'vck_wrong' }, { status: 'failed' }),
      req('DELETE', `/api/v1/contacts/${inGranted.id}`, { authorization: 'Bearer nope' }),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(401);
  });
});
