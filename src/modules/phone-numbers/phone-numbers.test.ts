import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';

let t: TestApp;
let owner: Account;
let stranger: Account;
let sub: SubUser;
let granted: { id: number; title: string };
let ungranted: { id: number; title: string };
let strangerCampaign: { id: number };

const url = '/api/v1/phone-numbers/';
const post = (headers: Record<string, string>, payload: Record<string, unknown>) => t.request({ method: 'POST', url, headers, payload });

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  stranger = await createAccount(t);
  granted = await createCampaignViaApi(t, owner.headers, { title: 'Granted line' });
  ungranted = await createCampaignViaApi(t, owner.headers, { title: 'Private line' });
  strangerCampaign = await createCampaignViaApi(t, stranger.headers);
  sub = await createSubUser(t, owner.id, [granted.id]);
});
afterAll(() => t?.close());

describe('phone numbers', () => {
  it('normalises the number to E.164, derives the country and joins the campaign title', async () => {
    const res = await post(owner.headers, { phone_number: '(415) 555-0100', campaign_id: granted.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number), phone_number: '+14155550100', campaign_id: granted.id, campaign_title: 'Granted line', country_code: 'US', owner_id: owner.id, provider_number_id: null });
    const read = await t.request({ method: 'GET', url: `${url}${res.json().id}`, headers: owner.headers });
    expect(read.json()).toEqual(res.json());
    const german = await post(owner.headers, { phone_number: '+49 30 901820', country_code: 'de' });
    expect(german.json()).toMatchObject({ phone_number: '+4930901820', country_code: 'DE', campaign_id: null, campaign_title: null });
  });

  it('refuses text that is not a phone number and a malformed country code with 422', async () => {
    for (const [payload, loc] of [
      [{ phone_number: 'call me' }, ['body', 'phone_number']],
      [{ phone_number: '+1 555' }, ['body', 'phone_number']],
      [{}, ['body', 'phone_number']],
      [{ phone_number: '+14155550101', country_code: 'USA' }, ['body', 'country_code']],
      [{ phone_number: '+14155550101', campaign_id: 'first' }, ['body', 'campaign_id']],
    ] as const) {
      const res = await post(owner.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
  });

  it('answers 409 for a number already in the account, whatever its spelling, but lets another account use it', async () => {
    expect((await post(owner.headers, { phone_number: '+1 415 555 0102' })).statusCode).toBe(200);
    const dup = await post(owner.headers, { phone_number: '415-555-0102' });
    expect(dup.statusCode).toBe(409);
    expect(typeof dup.json().detail).toBe('string');
    expect((await post(stranger.headers, { phone_number: '+14155550102' })).statusCode).toBe(200);
    const other = (await post(owner.headers, { phone_number: '+14155550103' })).json();
    expect((await t.request({ method: 'PUT', url: `${url}${other.id}`, headers: owner.headers, payload: { phone_number: '+14155550102' } })).statusCode).toBe(409);
  });

  it('checks the campaign: 404 when unknown, 403 when another account\'s', async () => {
    expect((await post(owner.headers, { phone_number: '+14155550104', campaign_id: 99999999 })).statusCode).toBe(404);
    const foreign = await post(owner.headers, { phone_number: '+14155550104', campaign_id: strangerCampaign.id });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ detail: 'Not enough permissions' });
  });

  it('updates the fields given, re-derives the country of a new number, and unassigns with null', async () => {
    const { id } = (await post(owner.headers, { phone_number: '+14155550105', campaign_id: granted.id })).json();
    const put = async (payload: Record<string, unknown>) => t.request({ method: 'PUT', url: `${url}${id}`, headers: owner.headers, payload });
    expect((await put({ phone_number: '+442071838750' })).json()).toMatchObject({ phone_number: '+442071838750', country_code: 'GB', campaign_id: granted.id, campaign_title: 'Granted line' });
    expect((await put({ campaign_id: ungranted.id })).json()).toMatchObject({ campaign_id: ungranted.id, campaign_title: 'Private line', country_code: 'GB' });
    expect((await put({ country_code: 'IE' })).json()).toMatchObject({ country_code: 'IE' });
    expect((await put({ country_code: null })).json()).toMatchObject({ country_code: 'GB' });
    expect((await put({ campaign_id: null })).json()).toMatchObject({ campaign_id: null, campaign_title: null, phone_number: '+442071838750' });
    expect((await put({ campaign_id: strangerCampaign.id })).statusCode).toBe(403);
    expect((await put({ phone_number: 'nope' })).statusCode).toBe(422);
  });

  it('keeps the vendor\'s number id: written on create, changed or cleared on update, left alone when omitted', async () => {
    const created = await post(owner.headers, { phone_number: '+14155550106', provider_number_id: 'vapi-pn-123' });
    expect(created.statusCode).toBe(200);
    expect(created.json().provider_number_id).toBe('vapi-pn-123');
    const id = created.json().id;
    const put = async (payload: Record<string, unknown>) => (await t.request({ method: 'PUT', url: `${url}${id}`, headers: owner.headers, payload })).json();
    expect((await put({ country_code: 'US' })).provider_number_id).toBe('vapi-pn-123');
    expect((await put({ provider_number_id: 'vapi-pn-456' })).provider_number_id).toBe('vapi-pn-456');
    expect((await t.request({ method: 'GET', url: `${url}${id}`, headers: owner.headers })).json().provider_number_id).toBe('vapi-pn-456');
    expect((await put({ provider_number_id: null })).provider_number_id).toBeNull();
    const tooLong = await post(owner.headers, { phone_number: '+14155550107', provider_number_id: 'x'.repeat(201) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().detail[0].loc).toEqual(['body', 'provider_number_id']);
  });

  it('lists the account\'s numbers newest first with a total count, filtered by campaign', async () => {
    const account = await createAccount(t);
    const campaign = await createCampaignViaApi(t, account.headers, { title: 'Listed' });
    const made = [];
    for (const n of ['+14155550110', '+14155550111', '+14155550112']) made.push((await post(account.headers, { phone_number: n, campaign_id: n.endsWith('0') ? null : campaign.id })).json().id);
    const all = (await t.request({ method: 'GET', url, headers: account.headers })).json();
    expect(all.count).toBe(3);
    expect(all.data.map((p: { id: number }) => p.id)).toEqual([...made].reverse());
    const page = (await t.request({ method: 'GET', url: `${url}?skip=1&limit=1`, headers: account.headers })).json();
    expect(page).toMatchObject({ count: 3, data: [{ id: made[1] }] });
    const filtered = (await t.request({ method: 'GET', url: `${url}?campaign_id=${campaign.id}`, headers: account.headers })).json();
    expect(filtered.count).toBe(2);
    expect(filtered.data.every((p: { campaign_title: string }) => p.campaign_title === 'Listed')).toBe(true);
    expect((await t.request({ method: 'GET', url: `${url}?campaign_id=${campaign.id}`, headers: owner.headers })).json()).toEqual({ data: [], count: 0 });
    expect((await t.request({ method: 'GET', url: `${url}?limit=1001`, headers: account.headers })).statusCode).toBe(422);
  });

  it('keeps other accounts out: 403 on read, change and delete, never listed', async () => {
    const { id } = (await post(stranger.headers, { phone_number: '+14155550120' })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.request({ method, url: `${url}${id}`, headers: owner.headers, payload: method === 'PUT' ? { campaign_id: null } : undefined });
      expect(res.statusCode, method).toBe(403);
    }
    const mine = (await t.request({ method: 'GET', url: `${url}?limit=1000`, headers: owner.headers })).json();
    expect(mine.data.map((p: { id: number }) => p.id)).not.toContain(id);
    expect(mine.data.every((p: { owner_id: number }) => p.owner_id === owner.id)).toBe(true);
    expect(mine.count).toBe(mine.data.length);
    expect((await t.request({ method: 'GET', url: `${url}99999999`, headers: owner.headers })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('lets a sub-user see the numbers of its granted campaigns only, and change none', async () => {
    const onGranted = (await post(owner.headers, { phone_number: '+14155550130', campaign_id: granted.id })).json();
    const onOther = (await post(owner.headers, { phone_number: '+14155550131', campaign_id: ungranted.id })).json();
    const list = (await t.request({ method: 'GET', url, headers: sub.headers })).json();
    expect(list.data.every((p: { campaign_id: number }) => p.campaign_id === granted.id)).toBe(true);
    expect(list.data.map((p: { id: number }) => p.id)).toContain(onGranted.id);
    expect(list.count).toBe(list.data.length);
    expect((await t.request({ method: 'GET', url: `${url}${onGranted.id}`, headers: sub.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `${url}${onOther.id}`, headers: sub.headers })).statusCode).toBe(403);
    expect((await post(sub.headers, { phone_number: '+14155550132' })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `${url}${onGranted.id}`, headers: sub.headers, payload: { campaign_id: null } })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${url}${onGranted.id}`, headers: sub.headers })).statusCode).toBe(403);
  });

  it('deletes a number, which then disappears from its campaign', async () => {
    const { id } = (await post(owner.headers, { phone_number: '+14155550140', campaign_id: ungranted.id })).json();
    const del = await t.request({ method: 'DELETE', url: `${url}${id}`, headers: owner.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Phone number deleted' });
    expect((await t.request({ method: 'GET', url: `${url}${id}`, headers: owner.headers })).statusCode).toBe(404);
    const campaign = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${ungranted.id}`, headers: owner.headers })).json();
    expect(campaign.phone_numbers.map((p: { id: number }) => p.id)).not.toContain(id);
  });
});
