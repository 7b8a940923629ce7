import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { dialDueContacts } from '../dialer/outbound/outbound.service.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let now = new Date('2030-01-07T23:00:00Z');

beforeAll(async () => {
  // The route reads the clock per request, so this fixed clock is the summary's "now"
  // and the dialer's (dialDueContacts reads the same deps).
  t = await createTestApp({}, { clock: { now: () => now } });
  alice = await createAccount(t);
  bob = await createAccount(t);
});
afterAll(() => t?.close());

let phoneSeq = 0;
const phone = () => `+1212555${String(1000 + ++phoneSeq).padStart(4, '0')}`;

async function contact(campaignId: number, fields: { status: string; timezone?: string; next_action_time?: string; phone_number?: string }) {
  const res = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { campaign_id: campaignId, phone_number: phone(), ...fields } });
  if (res.statusCode !== 200) throw new Error(`create contact failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

async function summary(campaignId: number, headers = alice.headers) {
  const res = await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/summary`, headers });
  return { status: res.statusCode, body: res.json() };
}

// First in the file: dialDueContacts claims due contacts of every campaign in the
// database, and the later tests only create contacts it would leave alone.
describe('next call and the calling window', () => {
  let campaignId: number;
  let newYork: number;

  beforeAll(async () => {
    now = new Date('2030-01-07T23:00:00Z'); // 18:00 in New York, 08:00 next morning in Tokyo
    campaignId = (await createCampaignViaApi(t, alice.headers, { call_allowed_from_time: '09:00', call_allowed_to_time: '17:00' })).id;
    newYork = await contact(campaignId, { status: 'added_to_queue', timezone: 'America/New_York', next_action_time: '2030-01-07T22:50:00Z' });
  });

  it('moves a contact queued after its window closed to the window\'s opening in its own zone, as the dialer does', async () => {
    const first = await summary(campaignId);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      next_call_at: '2030-01-08T14:00:00.000Z', // 09:00 EST
      next_call_reason: 'calling window opens at 2030-01-08T09:00:00.000-05:00 in America/New_York',
      next_contact_id: newYork,
    });

    // The dialer, at the same instant, calls nobody and reschedules the contact to exactly that time.
    expect((await dialDueContacts({ deps: t.deps })).started).toBe(0);
    const row = await t.deps.db.selectFrom('contacts').select(['status', 'next_action_time']).where('id', '=', newYork).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'call_scheduled', next_action_time: new Date('2030-01-08T14:00:00Z') });

    const after = await summary(campaignId);
    expect(after.body.next_call_at).toBe('2030-01-08T14:00:00.000Z');
    expect(after.body.next_call_reason).toBe('scheduled: outside calling window; next opening 2030-01-08T14:00:00.000Z');
  });

  let newYorkLater: number;
  it('answers a contact queued later whose window opens earlier (a contact abroad)', async () => {
    // First in the queue, but New York opens at 14:00Z; Tokyo, second in the queue, opens at 00:00Z.
    newYorkLater = await contact(campaignId, { status: 'added_to_queue', timezone: 'America/New_York', next_action_time: '2030-01-07T23:01:00Z' });
    const tokyo = await contact(campaignId, { status: 'added_to_queue', timezone: 'Asia/Tokyo', next_action_time: '2030-01-07T23:05:00Z' });
    const { body } = await summary(campaignId);
    expect(body).toMatchObject({
      next_call_at: '2030-01-08T00:00:00.000Z', // 09:00 in Tokyo, hours before New York opens
      next_call_reason: 'calling window opens at 2030-01-08T09:00:00.000+09:00 in Asia/Tokyo',
      next_contact_id: tokyo,
    });
  });

  it('answers "due now" at the summary\'s own time for the first contact in the queue once its window is open', async () => {
    now = new Date('2030-01-08T14:30:00Z'); // 09:30 in New York, 23:30 in Tokyo
    const { body } = await summary(campaignId);
    expect(body).toMatchObject({ as_of: '2030-01-08T14:30:00.000Z', next_call_at: '2030-01-08T14:30:00.000Z', next_call_reason: 'due now', next_contact_id: newYorkLater });
    now = new Date('2030-01-07T23:00:00Z');
  });
});

describe('counts', () => {
  it('counts the campaign\'s contacts by status, every status present, and nothing of other campaigns', async () => {
    const campaignId = (await createCampaignViaApi(t, alice.headers)).id;
    const other = (await createCampaignViaApi(t, alice.headers)).id;
    for (let i = 0; i < 3; i++) await contact(campaignId, { status: 'new' });
    for (let i = 0; i < 2; i++) await contact(campaignId, { status: 'finished' });
    await contact(campaignId, { status: 'do_not_disturb' });
    const scheduled = await contact(campaignId, { status: 'call_scheduled', next_action_time: '2031-05-01T10:00:00Z' });
    await contact(other, { status: 'new' });

    const { status, body } = await summary(campaignId);
    expect(status).toBe(200);
    expect(body.campaign_id).toBe(campaignId);
    expect(body.contacts).toEqual({
      total: 7,
      by_status: {
        new: 3, 'in progress': 0, finished: 2, failed: 0, busy: 0, not_reached: 0, invalid_number: 0, do_not_disturb: 1,
        paused: 0, added_to_queue: 0, call_scheduled: 1, no_answer: 0, awaiting_queue: 0,
      },
    });
    expect(body.calls_in_progress).toBe(0);
    // No window: the scheduled contact is called at its own time.
    expect(body).toMatchObject({ next_call_at: '2031-05-01T10:00:00.000Z', next_contact_id: scheduled });
    expect(body.next_call_reason).toMatch(/^scheduled/);
    expect(body.usage).toBeNull();
  });

  it('answers null with "no contact queued" when nothing is queued', async () => {
    const campaignId = (await createCampaignViaApi(t, alice.headers)).id;
    await contact(campaignId, { status: 'new' });
    expect((await summary(campaignId)).body).toMatchObject({ next_call_at: null, next_call_reason: 'no contact queued', next_contact_id: null });
  });
});

describe('campaigns that call nobody now', () => {
  it('answers null and "campaign paused" for a paused campaign with a due contact', async () => {
    const campaignId = (await createCampaignViaApi(t, alice.headers)).id;
    await contact(campaignId, { status: 'added_to_queue', next_action_time: '2031-01-01T00:00:00Z' });
    expect((await summary(campaignId)).body.next_call_at).toBe('2031-01-01T00:00:00.000Z');
    const paused = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: alice.headers, payload: { is_paused: true } });
    expect(paused.statusCode).toBe(200);
    const { body } = await summary(campaignId);
    expect(body).toMatchObject({ next_call_at: null, next_call_reason: 'campaign paused', next_contact_id: null });
    expect(body.contacts.by_status.added_to_queue).toBe(1);
  });

  it('answers null and the end of the period for a campaign over its usage limit, with the usage', async () => {
    const campaignId = (await createCampaignViaApi(t, alice.headers, { limit_value: 0, limit_unit: 'contacts', limit_start: '2030-01-01T00:00:00Z', limit_end: '2030-02-01T00:00:00Z' })).id;
    await contact(campaignId, { status: 'added_to_queue', next_action_time: '2031-01-01T00:00:00Z' });
    const { body } = await summary(campaignId);
    expect(body).toMatchObject({ next_call_at: null, next_call_reason: 'campaign usage limit reached until 2030-02-01T00:00:00.000Z (the end of the limit period)' });
    expect(body.usage).toEqual({
      limit_value: 0, limit_unit: 'contacts', limit_usage: 0, limit_reached: true,
      period_start: '2030-01-01T00:00:00.000Z', period_end: '2030-02-01T00:00:00.000Z', active: true,
    });
  });

  it('answers null when every concurrent call slot is taken by a call in progress', async () => {
    const campaignId = (await createCampaignViaApi(t, alice.headers, { concurrent_call_limit: 1 })).id;
    const talking = await contact(campaignId, { status: 'in progress' });
    const waiting = await contact(campaignId, { status: 'added_to_queue', next_action_time: '2030-01-07T22:00:00Z' });
    await seed(t.deps.db, { calls: [{ contact: { id: talking, campaign_id: campaignId, owner_id: alice.id }, status: 'in progress', start_time: now, call_type: 'outbound', to_number: phone() }] });
    const { body } = await summary(campaignId);
    expect(body.calls_in_progress).toBe(1);
    expect(body).toMatchObject({ next_call_at: null, next_contact_id: waiting });
    expect(body.next_call_reason).toMatch(/^due now, but all 1 concurrent call slots are in use/);
  });
});

describe('access', () => {
  let campaignId: number;
  beforeAll(async () => {
    campaignId = (await createCampaignViaApi(t, alice.headers)).id;
  });

  it('refuses another account\'s campaign with 403 and an unknown one with 404', async () => {
    expect((await summary(campaignId, bob.headers)).status).toBe(403);
    expect((await summary(Number.MAX_SAFE_INTEGER)).status).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/summary` })).statusCode).toBe(401);
  });

  it('answers a sub-user for a granted campaign only', async () => {
    const without = await createSubUser(t, alice.id);
    expect((await summary(campaignId, without.headers)).status).toBe(403);
    const granted = await createSubUser(t, alice.id, [campaignId]);
    const { status, body } = await summary(campaignId, granted.headers);
    expect(status).toBe(200);
    expect(body.campaign_id).toBe(campaignId);
  });
});
