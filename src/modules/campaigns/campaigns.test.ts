import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, createAccount, createCampaignViaApi, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => {
  ({ t, alice, bob } = await appWithAccounts());
  FULL_BODY.assistant_id = await createAssistant(alice);
});
afterAll(() => t?.close());

/** An assistant of the account, through the API; answers its id. */
async function createAssistant(owner: Account): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/v1/assistants', headers: owner.headers, payload: { name: 'Receptionist', provider: 'sim' } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

const FULL_BODY = {
  title: 'Spring outreach',
  campaign_type: 'Inbound',
  description: 'Call back everyone who asked',
  campaign_data: { prompt: 'Be brief.', language: 'de', nested: { a: [1, 2] } },
  campaign_phone: '+4930123456',
  campaign_sip: 'sip:agent@example.com',
  assistant_id: 0, // alice's assistant, made in beforeAll
  max_call_attempts: 3,
  concurrent_call_limit: 5,
  call_interval: [10, 60, 1440],
  call_allowed_from_time: '09:30',
  call_allowed_to_time: '18:00:00',
  work_schedule: { timezone: 'Europe/Berlin', days: { mon: [{ from: '09:00', to: '12:00' }], sat: [] }, skip_dates: ['2026-12-25'] },
  auto_calls: true,
  is_auto_ai_message: true,
  is_archive: true,
  is_paused: true,
  limit_start: '2026-01-01T00:00:00Z',
  limit_end: '2026-02-01T12:00:00+02:00',
  limit_value: 12.5,
  limit_unit: 'minutes',
};

describe('create and read', () => {
  it('answers every field with its default when only title and type are given', async () => {
    const created = await createCampaignViaApi(t, alice.headers, { title: 'Defaults', campaign_type: 'Outbound' });
    const expected = {
      id: created.id,
      owner_id: alice.id,
      title: 'Defaults',
      campaign_type: 'Outbound',
      description: null,
      campaign_data: null,
      campaign_phone: null,
      campaign_sip: null,
      assistant_id: null,
      max_call_attempts: null,
      concurrent_call_limit: 0,
      call_interval: null,
      phone_numbers: [],
      call_allowed_from_time: null,
      call_allowed_to_time: null,
      work_schedule: null,
      auto_calls: false,
      is_auto_ai_message: false,
      is_archive: false,
      is_paused: false,
      limit_start: null,
      limit_end: null,
      limit_value: null,
      limit_unit: null,
      limit_usage: 0,
      limit_reached: false,
      sub_users: [],
      prompt_history: [],
    };
    expect(created).toEqual(expected);
    const read = await t.request({ method: 'GET', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(expected);
  });

  it('round-trips every writable field through create and read', async () => {
    const created = await createCampaignViaApi(t, alice.headers, FULL_BODY);
    const read = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers })).json();
    for (const body of [created, read]) {
      expect(body).toMatchObject({
        ...FULL_BODY,
        call_allowed_from_time: '09:30:00',
        limit_start: '2026-01-01T00:00:00.000Z',
        limit_end: '2026-02-01T10:00:00.000Z',
        limit_usage: 0,
        limit_reached: false,
        owner_id: alice.id,
      });
      expect(body.prompt_history).toHaveLength(1);
      expect(body.prompt_history[0]).toMatchObject({ prompt_data: { prompt: 'Be brief.' }, status: 'auto_approved' });
    }
  });

  it('ignores limit_usage and limit_reached sent by the client and judges a zero limit as reached', async () => {
    const created = await createCampaignViaApi(t, alice.headers, { limit_usage: 99, limit_reached: true, limit_value: 0, limit_unit: 'contacts' });
    expect(created).toMatchObject({ limit_usage: 0, limit_reached: true, limit_value: 0 });
    const unlimited = await createCampaignViaApi(t, alice.headers, { limit_usage: 99, limit_reached: true });
    expect(unlimited).toMatchObject({ limit_usage: 0, limit_reached: false });
  });

  it('shows the phone numbers assigned to the campaign with the campaign title', async () => {
    const campaign = await createCampaignViaApi(t, alice.headers, { title: 'With numbers' });
    const added = await t.request({ method: 'POST', url: '/api/v1/phone-numbers/', headers: alice.headers, payload: { phone_number: '+14155550123', campaign_id: campaign.id } });
    expect(added.statusCode).toBe(200);
    const read = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}`, headers: alice.headers })).json();
    expect(read.phone_numbers).toEqual([{ id: added.json().id, phone_number: '+14155550123', campaign_id: campaign.id, campaign_title: 'With numbers', country_code: 'US', owner_id: alice.id, provider_number_id: null }]);
    const list = (await t.request({ method: 'GET', url: `/api/v1/campaigns/?id=${campaign.id}`, headers: alice.headers })).json();
    expect(list.data[0].phone_numbers).toEqual(read.phone_numbers);
  });
});

describe('update', () => {
  it('changes only the fields in the body and keeps the rest', async () => {
    const created = await createCampaignViaApi(t, alice.headers, FULL_BODY);
    const res = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers, payload: { description: 'changed', call_interval: [5], auto_calls: false } });
    expect(res.statusCode).toBe(200);
    const { description, call_interval, auto_calls, ...rest } = res.json();
    expect({ description, call_interval, auto_calls }).toEqual({ description: 'changed', call_interval: [5], auto_calls: false });
    const { description: _d, call_interval: _c, auto_calls: _a, ...before } = created;
    expect(rest).toEqual(before);
  });

  it('leaves title, campaign_type, is_archive and is_paused unchanged when they are null, and clears other fields set to null', async () => {
    const created = await createCampaignViaApi(t, alice.headers, FULL_BODY);
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/campaigns/${created.id}`,
      headers: alice.headers,
      payload: { title: null, campaign_type: null, is_archive: null, is_paused: null, description: null, work_schedule: null, call_interval: null, limit_unit: null, limit_start: null, max_call_attempts: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: FULL_BODY.title, campaign_type: 'Inbound', is_archive: true, is_paused: true });
    expect(res.json()).toMatchObject({ description: null, work_schedule: null, call_interval: null, limit_unit: null, limit_start: null, max_call_attempts: null });
    const changed = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${created.id}`, headers: alice.headers, payload: { title: 'New title', campaign_type: 'Outbound', is_archive: false, is_paused: false } });
    expect(changed.json()).toMatchObject({ title: 'New title', campaign_type: 'Outbound', is_archive: false, is_paused: false });
  });

  it('recomputes limit_reached from the usage so far when a limit field changes, and only then', async () => {
    const { id } = await createCampaignViaApi(t, alice.headers, { limit_value: 100, limit_unit: 'contacts' });
    // Usage is counted from the calls: 7 distinct contacts called, 1.00 of cost each.
    const campaign = { id, owner_id: alice.id };
    await seed(t.deps.db, {
      contacts: Array.from({ length: 7 }, (_, i) => ({ campaign, phone_number: `+1415555${String(7000 + i)}`, status: 'finished' })),
      calls: Array.from({ length: 7 }, (_, i) => ({ contact: i, status: 'finished', call_type: 'outbound', start_time: new Date(), cost: 1, call_duration: 30, to_number: null })),
    });
    const put = async (payload: Record<string, unknown>) => (await t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers: alice.headers, payload })).json();
    expect(await put({ limit_value: 7 })).toMatchObject({ limit_value: 7, limit_usage: 7, limit_reached: true });
    expect(await put({ limit_value: 7.5 })).toMatchObject({ limit_reached: false });
    expect(await put({ limit_value: 3 })).toMatchObject({ limit_reached: true });
    expect(await put({ limit_value: null })).toMatchObject({ limit_value: null, limit_reached: false });
    await t.deps.db.updateTable('campaigns').set({ limit_value: 1, limit_reached: false }).where('id', '=', id).execute();
    expect(await put({ description: 'no limit change' })).toMatchObject({ limit_reached: false });
    expect(await put({ limit_unit: 'cost' })).toMatchObject({ limit_value: 1, limit_reached: true });
    expect(await put({ limit_usage: 0, limit_reached: false })).toMatchObject({ limit_usage: 7, limit_reached: true });
  });
});

describe('access', () => {
  it('answers 401 without credentials on every campaign operation', async () => {
    const { id } = await createCampaignViaApi(t, alice.headers);
    for (const [method, url] of [['GET', '/api/v1/campaigns/'], ['POST', '/api/v1/campaigns/'], ['GET', `/api/v1/campaigns/${id}`], ['PUT', `/api/v1/campaigns/${id}`], ['POST', `/api/v1/campaigns/${id}/prompt-history/1/approve`]] as const) {
      const res = await t.request({ method, url, payload: method === 'GET' ? undefined : { title: 'x', campaign_type: 'Outbound' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('answers 403 for another account\'s campaign and never lists or counts it', async () => {
    const secret = await createCampaignViaApi(t, alice.headers, { title: 'Alice secret' });
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.request({ method, url: `/api/v1/campaigns/${secret.id}`, headers: bob.headers, payload: method === 'PUT' ? { title: 'stolen' } : undefined });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Not enough permissions' });
    }
    for (const query of ['', `?id=${secret.id}`, '?title=secret', '?include_archived=true']) {
      const list = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${query}`, headers: bob.headers })).json();
      expect(list.data.map((c: { id: number }) => c.id)).not.toContain(secret.id);
      expect(list.count).toBe(list.data.length);
    }
    const read = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${secret.id}`, headers: alice.headers })).json();
    expect(read.title).toBe('Alice secret');
  });

  it('answers 404 for an unknown campaign id', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.request({ method, url: '/api/v1/campaigns/987654321', headers: alice.headers, payload: method === 'PUT' ? { title: 'x' } : undefined });
      expect(res.statusCode).toBe(404);
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('lets a sub-user list, read and update only the campaigns granted to it, and not create any', async () => {
    const owner = await createAccount(t);
    const granted = await createCampaignViaApi(t, owner.headers, { title: 'Granted' });
    const other = await createCampaignViaApi(t, owner.headers, { title: 'Not granted' });
    const sub = await createSubUser(t, owner.id, [granted.id]);

    const list = (await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: sub.headers })).json();
    expect(list).toMatchObject({ count: 1, data: [{ id: granted.id, sub_users: [{ id: sub.id, username: sub.username, email: sub.email, full_name: sub.fullName }] }] });

    expect((await t.request({ method: 'GET', url: `/api/v1/campaigns/${granted.id}`, headers: sub.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/v1/campaigns/${other.id}`, headers: sub.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/v1/campaigns/${other.id}`, headers: sub.headers, payload: { title: 'x' } })).statusCode).toBe(403);

    const updated = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${granted.id}`, headers: sub.headers, payload: { title: 'Renamed by sub-user', is_paused: true } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ title: 'Renamed by sub-user', is_paused: true, owner_id: owner.id });

    const create = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: sub.headers, payload: { title: 'Mine', campaign_type: 'Outbound' } });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toEqual({ detail: 'Not enough permissions' });
  });
});

describe('assistant_id', () => {
  const put = (id: number, payload: Record<string, unknown>, headers = alice.headers) => t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers, payload });
  const post = (payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: alice.headers, payload: { title: 'With assistant', campaign_type: 'Outbound', ...payload } });

  it('accepts an assistant of the account on create and update, and null', async () => {
    const first = await createAssistant(alice);
    const second = await createAssistant(alice);
    const created = await post({ assistant_id: first });
    expect(created.statusCode).toBe(200);
    expect(created.json().assistant_id).toBe(first);
    expect((await put(created.json().id, { assistant_id: second })).json().assistant_id).toBe(second);
    expect((await put(created.json().id, { assistant_id: null })).json().assistant_id).toBeNull();
  });

  it('is a 422 at body.assistant_id for an unknown assistant and for another account\'s, the same answer for both', async () => {
    const bobs = await createAssistant(bob);
    const campaign = await createCampaignViaApi(t, alice.headers);
    for (const res of [await post({ assistant_id: 999999 }), await post({ assistant_id: bobs }), await put(campaign.id, { assistant_id: bobs })]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'assistant_id']);
      expect(res.json().detail[0].msg).not.toMatch(/another account|permission/i);
    }
    const unknown = (await post({ assistant_id: 999999 })).json().detail[0].msg.replace('999999', 'N');
    expect((await post({ assistant_id: bobs })).json().detail[0].msg.replace(String(bobs), 'N')).toBe(unknown);
    expect((await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}`, headers: alice.headers })).json().assistant_id).toBeNull();
  });
});
