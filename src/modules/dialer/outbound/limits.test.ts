import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, liveCalls, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';
import { sweepCampaignStates } from './sweep.ts';

let h: DialerHarness;
// Monday 2030-01-07 15:00 UTC = 10:00 in New York.
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
});
afterAll(async () => h?.close());

const MIN = 60_000;
const live = async (campaignId: number) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE campaign_id = ${campaignId} AND status = 'in progress'`.execute(h.t.deps.db)).rows[0]!.n);
const campaignRow = (id: number) => h.t.deps.db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const long = { _sim: { status: 'finished', duration: 600 } };

describe('concurrency', () => {
  it('never has more calls of a campaign in progress than concurrent_call_limit', async () => {
    const c = await h.campaign({ concurrent_call_limit: 2 });
    await h.contacts(c, [usNumber(), usNumber(), usNumber(), usNumber(), usNumber()], { contact_data: long });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(2);
    expect(await h.round(c)).toBe(0);
    expect(await live(c)).toBe(2);
    await h.advance(11 * MIN);
    expect(await live(c)).toBe(0);
    expect(await h.round(c)).toBe(2);
    await h.advance(11 * MIN);
  });

  it('caps the whole service at MAX_CONCURRENT_CALLS', async () => {
    h.t.deps.config.MAX_CONCURRENT_CALLS = 3;
    try {
      const a = await h.campaign();
      const b = await h.campaign();
      await h.contacts(a, [usNumber(), usNumber(), usNumber()], { contact_data: long });
      await h.contacts(b, [usNumber(), usNumber(), usNumber()], { contact_data: long });
      await h.enqueue(a);
      await h.enqueue(b);
      await h.round();
      // other tests' contacts may hold slots too: the cap is on the whole service
      expect(await liveCalls(h.t)).toBe(3);
      expect((await live(a)) + (await live(b))).toBeGreaterThan(0);
      await h.round();
      expect(await liveCalls(h.t)).toBe(3);
    } finally {
      h.t.deps.config.MAX_CONCURRENT_CALLS = 0;
      await h.advance(11 * MIN);
    }
  });

  it('never calls one number twice at once within an account, across campaigns', async () => {
    const number = usNumber();
    const a = await h.campaign();
    const b = await h.campaign();
    const [ca] = await h.contacts(a, [number], { contact_data: long });
    const [cb] = await h.contacts(b, [number], { contact_data: long });
    await h.enqueue(a);
    await h.enqueue(b);
    await h.round();
    const calls = [...(await h.callsOf(ca!)), ...(await h.callsOf(cb!))];
    expect(calls).toHaveLength(1);
    const waiting = await h.contact(calls[0].contact_id === ca ? cb! : ca!);
    expect(waiting.status).toBe('call_scheduled');
    expect(waiting.next_action_reason).toContain('another call to this number');
    await h.advance(11 * MIN);
    await h.round();
    expect((await h.callsOf(ca!)).length + (await h.callsOf(cb!)).length).toBe(2);
    await h.advance(11 * MIN);
  });
});

describe('usage limits', () => {
  it('stops at the number of distinct contacts called (limit_unit contacts)', async () => {
    const c = await h.campaign({ limit_unit: 'contacts', limit_value: 2 });
    const ids = await h.contacts(c, [usNumber(), usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 30 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(2);
    await h.advance(5 * MIN);
    const row = await campaignRow(c);
    expect(row).toMatchObject({ limit_usage: 2, limit_reached: true });
    await h.round();
    const statuses = await Promise.all(ids.map(async (id) => (await h.contact(id)).status));
    expect(statuses.filter((s) => s === 'finished')).toHaveLength(2);
    const waiting = await Promise.all(ids.map((id) => h.contact(id)));
    expect(waiting.filter((w) => w.status === 'awaiting_queue' && w.next_action_reason === 'campaign usage limit reached')).toHaveLength(2);
    // raising the limit lets the waiting contacts be called
    await h.t.deps.db.updateTable('campaigns').set({ limit_value: 10 }).where('id', '=', c).execute();
    expect(await h.round(c)).toBe(2);
    await h.advance(5 * MIN);
  });

  it('stops once billed minutes reach the limit (limit_unit minutes)', async () => {
    const c = await h.campaign({ limit_unit: 'minutes', limit_value: 3, concurrent_call_limit: 1 });
    await h.contacts(c, [usNumber(), usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 90 } } });
    await h.enqueue(c);
    for (let i = 0; i < 4; i++) {
      await h.round();
      await h.advance(5 * MIN);
    }
    const row = await campaignRow(c);
    expect(row.limit_reached).toBe(true);
    expect(row.limit_usage).toBe(4); // two calls of 90 s bill 2 minutes each
    const n = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE campaign_id = ${c}`.execute(h.t.deps.db)).rows[0]!.n);
    expect(n).toBe(2);
  });

  it('stops once the cost reaches the limit (limit_unit cost)', async () => {
    const c = await h.campaign({ limit_unit: 'cost', limit_value: 0.2, concurrent_call_limit: 1 });
    await h.contacts(c, [usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 120 } } });
    await h.enqueue(c);
    for (let i = 0; i < 3; i++) {
      await h.round();
      await h.advance(5 * MIN);
    }
    const row = await campaignRow(c);
    expect(row.limit_reached).toBe(true);
    expect(row.limit_usage).toBeCloseTo(0.36, 6);
  });

  it('reserves the average paid call for each cost call in progress (no burst past a cost limit)', async () => {
    const c = await h.campaign({ limit_unit: 'cost', limit_value: 0.5, concurrent_call_limit: 0 });
    await h.contacts(c, Array.from({ length: 40 }, () => usNumber()), { contact_data: { _sim: { status: 'finished', duration: 120 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(1); // no paid call yet: one at a time
    await h.advance(5 * MIN);
    const started = await h.round(c); // 0.18 spent, 0.18 a call: room for two more
    expect(started).toBe(2);
    await h.advance(5 * MIN);
    for (let i = 0; i < 3; i++) {
      await h.round(c);
      await h.advance(5 * MIN);
    }
    const row = await campaignRow(c);
    expect(row.limit_reached).toBe(true);
    expect(row.limit_usage).toBeLessThan(0.5 + 0.18 + 1e-9); // at most one call's cost past the limit
  });

  it('counts the usage again when a limit is set or changed through the API', async () => {
    const c = await h.campaign({ concurrent_call_limit: 0 });
    await h.contacts(c, [usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 120 } } });
    await h.enqueue(c);
    await h.round(c);
    await h.advance(5 * MIN);
    const put = (body: object) => h.t.request({ method: 'PUT', url: `/api/v1/campaigns/${c}`, headers: h.account.headers, payload: body });
    // Three calls of 2 billed minutes: a new 5-minute limit is reached already.
    expect((await put({ limit_unit: 'minutes', limit_value: 5 })).json()).toMatchObject({ limit_usage: 6, limit_reached: true });
    expect((await put({ limit_value: 10 })).json()).toMatchObject({ limit_usage: 6, limit_reached: false });
    expect((await put({ limit_unit: 'contacts', limit_value: 3 })).json()).toMatchObject({ limit_usage: 3, limit_reached: true });
    expect((await put({ limit_value: null })).json()).toMatchObject({ limit_reached: false });
  });

  it('does not count calls outside limit_start..limit_end', async () => {
    const now = h.clock.now();
    const c = await h.campaign({ limit_unit: 'contacts', limit_value: 1, limit_start: new Date(now.getTime() + 86_400_000) });
    await h.contacts(c, [usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 30 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(2);
    await h.advance(5 * MIN);
    expect((await campaignRow(c)).limit_reached).toBe(false);
  });
});

describe('paused and archived campaigns', () => {
  it('start no call, say why, and call again once resumed; calls in progress finish normally', async () => {
    const c = await h.campaign();
    const [first, second] = await h.contacts(c, [usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 60 } } });
    await h.enqueue(c);
    await h.t.deps.db.updateTable('contacts').set({ status: 'new' }).where('id', '=', second!).execute();
    expect(await h.round(c)).toBe(1);
    await h.t.deps.db.updateTable('campaigns').set({ is_paused: true }).where('id', '=', c).execute();
    await h.advance(5 * MIN);
    expect((await h.contact(first!)).status).toBe('finished');
    await h.enqueue(c);
    expect(await h.round(c)).toBe(0);
    expect(await h.contact(second!)).toMatchObject({ status: 'awaiting_queue', next_action_code: 'campaign_paused', next_action_reason: 'campaign paused' });
    await h.t.deps.db.updateTable('campaigns').set({ is_paused: false, is_archive: true }).where('id', '=', c).execute();
    expect(await h.round(c)).toBe(0);
    expect(await h.contact(second!)).toMatchObject({ status: 'awaiting_queue', next_action_code: 'campaign_archived', next_action_reason: 'campaign archived' });
    await h.t.deps.db.updateTable('campaigns').set({ is_archive: false }).where('id', '=', c).execute();
    await sweepCampaignStates({ deps: h.t.deps });
    expect(await h.contact(second!)).toMatchObject({ status: 'added_to_queue', next_action_code: 'requeued', next_action_reason: 'back in the queue: campaign archived no longer applies' });
    await h.round();
    expect((await h.contact(second!)).status).toBe('in progress');
    await h.advance(5 * MIN);
  });
});

describe('parked contacts are found by their code, not their sentence', () => {
  it('revives a contact parked for its campaign, and leaves one whose reason only reads the same (set through the API)', async () => {
    const c = await h.campaign({ is_paused: true });
    const [parked, lookalike] = await h.contacts(c, [usNumber(), usNumber()]);
    await h.enqueue(c);
    await h.t.request({ method: 'PUT', url: `/api/v1/contacts/${lookalike}`, headers: h.account.headers, payload: { status: 'awaiting_queue', next_action_reason: 'campaign paused' } });
    await sweepCampaignStates({ deps: h.t.deps });
    expect(await h.contact(parked!)).toMatchObject({ status: 'awaiting_queue', next_action_code: 'campaign_paused' });
    expect(await h.contact(lookalike!)).toMatchObject({ status: 'awaiting_queue', next_action_code: 'set_by_user', next_action_reason: 'campaign paused' });
    await h.t.deps.db.updateTable('campaigns').set({ is_paused: false }).where('id', '=', c).execute();
    await sweepCampaignStates({ deps: h.t.deps });
    expect(await h.contact(parked!)).toMatchObject({ status: 'added_to_queue', next_action_code: 'requeued' });
    expect(await h.contact(lookalike!)).toMatchObject({ status: 'awaiting_queue', next_action_code: 'set_by_user' });
  });
});

describe('calling windows in the dialer', () => {
  it('moves a contact outside its window to the next opening and calls it then', async () => {
    const c = await h.campaign({ call_allowed_from_time: '09:00', call_allowed_to_time: '17:00' });
    // Tokyo: 15:00 UTC is 00:00 the next day.
    const [id] = await h.contacts(c, [usNumber()], { timezone: 'Asia/Tokyo', contact_data: { _sim: { status: 'finished', duration: 30 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(0);
    const contact = await h.contact(id!);
    expect(contact.status).toBe('call_scheduled');
    expect(contact.next_action_reason).toContain('outside calling window');
    expect(contact.next_action_code).toBe('outside_window');
    const opening = contact.next_action_time.getTime();
    expect(new Date(opening).toISOString().slice(11, 16)).toBe('00:00'); // 09:00 Tokyo
    h.clock.set(new Date(opening - MIN));
    expect(await h.round(c)).toBe(0);
    h.clock.set(new Date(opening));
    expect(await h.round(c)).toBe(1);
    await h.advance(5 * MIN);
  });

  it('gives each contact of one round the opening of its own zone', async () => {
    // A one-hour window twelve hours ahead of Tokyo's wall clock, wherever earlier tests left the clock:
    // closed now in Tokyo and in Kolkata (3.5 h behind), so it opens 3.5 h later for Kolkata.
    const tokyoHour = (new Date(h.clock.now().getTime() + 9 * 3_600_000).getUTCHours() + 12) % 24;
    const from = `${String(tokyoHour).padStart(2, '0')}:00`;
    const to = `${String((tokyoHour + 1) % 24).padStart(2, '0')}:00`;
    const c = await h.campaign({ call_allowed_from_time: from, call_allowed_to_time: to });
    const ids = [];
    for (const timezone of ['Asia/Tokyo', 'Asia/Kolkata', 'Asia/Tokyo']) {
      ids.push(...await h.contacts(c, [usNumber()], { timezone, contact_data: { _sim: { status: 'finished', duration: 30 } } }));
    }
    await h.enqueue(c);
    expect(await h.round(c)).toBe(0);
    const [tokyo, kolkata, tokyo2] = await Promise.all(ids.map(async (id) => (await h.contact(id)).next_action_time.getTime()));
    expect(tokyo2).toBe(tokyo);
    expect(kolkata! - tokyo!).toBe(3.5 * 3_600_000);
    expect(new Date(tokyo! + 9 * 3_600_000).toISOString().slice(11, 16)).toBe(from);
  });

  it('moves a retry that falls outside the window to the next opening', async () => {
    h.clock.set('2030-01-10T21:30:00Z'); // 16:30 in New York
    const c = await h.campaign({ call_allowed_from_time: '09:00', call_allowed_to_time: '17:00', max_call_attempts: 2, call_interval: [60] });
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status: 'busy_or_rejected' } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(1);
    await h.advance(MIN);
    const contact = await h.contact(id!);
    expect(contact.status).toBe('call_scheduled');
    expect(contact.next_action_time.toISOString()).toBe('2030-01-11T14:00:00.000Z');
    expect(contact.next_action_reason).toContain('next calling window');
  });

  it('parks contacts whose schedule never opens until the campaign is edited', async () => {
    const c = await h.campaign({ work_schedule: { timezone: 'UTC', days: {} } });
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status: 'finished', duration: 30 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(0);
    expect(await h.contact(id!)).toMatchObject({ status: 'awaiting_queue', next_action_time: null });
    await h.t.deps.db.updateTable('campaigns').set({ work_schedule: null, updated_at: sql<Date>`now() + interval '1 second'` }).where('id', '=', c).execute();
    expect(await h.round(c)).toBe(1);
    await h.advance(5 * MIN);
  });
});

describe('auto_calls', () => {
  it('calls a contact created through the API in an auto_calls campaign', async () => {
    const c = await h.campaign({ auto_calls: true });
    const res = await h.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: h.account.headers, payload: { campaign_id: c, phone_number: usNumber(), status: 'new', contact_data: { _sim: { status: 'finished', duration: 30 } } } });
    expect(res.statusCode).toBe(200);
    const id = res.json().id;
    expect((await h.contact(id)).status).toBe('added_to_queue');
    expect(await h.round(c)).toBe(1);
    await h.advance(5 * MIN);
    expect((await h.contact(id)).status).toBe('finished');
  });
});
