import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishCall } from '../src/modules/dialer/call-events/call-events.service.ts';
import { dialerHarness, type DialerHarness } from './helpers/dialer-harness.ts';

/**
 * Calling people lawfully, end to end through the API and the dialer's rounds: the do-not-call
 * list at dial time (also for a contact already claimed), the account's quiet hours in the
 * contact's local time, frequency caps across campaigns, opt-outs from the conversation, local
 * caller ID, and the audit trail of the settings. The account keeps the law's defaults
 * (createAccount's test default of calling around the clock is undone here).
 */
let h: DialerHarness;
const OPEN = { call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' };
// Monday 2030-01-07 12:00 UTC: 07:00 in New York, before its quiet hours end.
const MORNING = '2030-01-07T12:00:00Z';

beforeAll(async () => {
  h = await dialerHarness(MORNING);
  await h.t.deps.db.deleteFrom('account_compliance').where('owner_id', '=', h.account.id).execute();
});
afterAll(async () => h?.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.t.request({ method, url, headers: h.account.headers, ...(payload && { payload }) });
let n = 0;
/** A distinct New York number per call of this file. */
const nyNumber = () => `+1212555${String(3000 + n++).padStart(4, '0')}`;

async function settle() {
  for (let i = 0; i < 5; i++) await h.advance(10 * 60_000);
}

describe('lawful calling', () => {
  it('reads the quiet hours in the contact\'s local time: a New York contact waits until 08:00 there', async () => {
    h.clock.set(MORNING);
    const campaign = await h.campaign(OPEN);
    const [id] = await h.contacts(campaign, [nyNumber()]);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(0);
    const waiting = await h.contact(id!);
    expect(waiting.status).toBe('call_scheduled');
    expect(new Date(waiting.next_action_time).toISOString()).toBe('2030-01-07T13:00:00.000Z');
    h.clock.set('2030-01-07T13:00:01Z');
    expect(await h.round(campaign)).toBe(1);
    await settle();
  });

  it('widening the quiet hours is the owner\'s audited setting; a window crossing midnight is a 422', async () => {
    const bad = await api('PUT', '/api/v1/compliance/settings', { quiet_hours_from: '22:00', quiet_hours_to: '06:00', max_calls_per_day: 3, max_calls_per_week: 7 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'quiet_hours_to']);
    expect((await api('GET', '/api/v1/compliance/settings')).json()).toEqual({ quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_calls_per_day: 3, max_calls_per_week: 7, max_texts_per_day: 2, max_texts_per_week: 5 });
    const wide = await api('PUT', '/api/v1/compliance/settings', { quiet_hours_from: '07:00', quiet_hours_to: '21:00', max_calls_per_day: 3, max_calls_per_week: 7 });
    expect(wide.statusCode, wide.body).toBe(200);
    const events = (await api('GET', '/api/v1/audit-events?kind=account.quiet_hours_changed')).json();
    expect(events.data[0]).toMatchObject({ kind: 'account.quiet_hours_changed', details: { from: ['08:00', '21:00'], to: ['07:00', '21:00'] } });
    await api('PUT', '/api/v1/compliance/settings', { quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_calls_per_day: 3, max_calls_per_week: 7 });
  });

  it('never dials a number suppressed after its contact was queued; the contact ends do_not_disturb naming the suppression', async () => {
    h.clock.set('2030-01-08T15:00:00Z');
    const campaign = await h.campaign(OPEN);
    const phone = nyNumber();
    const [id] = await h.contacts(campaign, [phone]);
    await h.enqueue(campaign);
    const added = await api('POST', '/api/v1/suppressions/', { phone_number: phone, reason: 'asked by letter' });
    expect(added.statusCode, added.body).toBe(200);
    // The list moved the queued contact at once; put it back in the queue as a contact the list
    // could not reach (locked by a round) would be: the claim itself must refuse it.
    expect((await h.contact(id!)).status).toBe('do_not_disturb');
    await h.t.deps.db.updateTable('contacts').set({ status: 'added_to_queue', next_action_time: h.clock.now() }).where('id', '=', id!).execute();
    expect(await h.round(campaign)).toBe(0);
    const contact = await h.contact(id!);
    expect(contact).toMatchObject({ status: 'do_not_disturb', next_action_code: 'suppressed' });
    expect(contact.next_action_reason).toContain(`suppression ${added.json().id}`);
  });

  it('does not dial a contact already claimed when its number is suppressed before the dial', async () => {
    h.clock.set('2030-01-09T15:00:00Z');
    const campaign = await h.campaign(OPEN);
    const phone = nyNumber();
    const [id] = await h.contacts(campaign, [phone]);
    await h.enqueue(campaign);
    // The suppression commits with the round that claimed the contact and wrote its call: after
    // the claim's own check, before the dial.
    const db = h.t.deps.db;
    await sql`CREATE OR REPLACE FUNCTION suppress_on_claim() RETURNS trigger AS $$
      BEGIN INSERT INTO suppressions (owner_id, phone_number, reason, source) VALUES (NEW.owner_id, NEW.to_number, 'added mid-round', 'manual') ON CONFLICT DO NOTHING; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER suppress_on_claim AFTER INSERT ON calls FOR EACH ROW EXECUTE FUNCTION suppress_on_claim()`.execute(db);
    try {
      await h.round(campaign);
    } finally {
      await sql`DROP TRIGGER suppress_on_claim ON calls`.execute(db);
    }
    expect(await h.callsOf(id!)).toEqual([]);
    const contact = await h.contact(id!);
    expect(contact).toMatchObject({ status: 'do_not_disturb', calls_attempts: 0 });
    expect(contact.next_action_reason).toMatch(/added mid-round.*not dialled/);
  });

  it('caps the calls to one number across campaigns, and reschedules to the first moment the cap allows', async () => {
    h.clock.set('2030-01-10T15:00:00Z');
    expect((await api('PUT', '/api/v1/compliance/settings', { quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_calls_per_day: 2, max_calls_per_week: 7 })).statusCode).toBe(200);
    const phone = nyNumber();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const campaign = await h.campaign(OPEN);
      ids.push(...(await h.contacts(campaign, [phone])));
      await h.enqueue(campaign);
    }
    for (let i = 0; i < 6; i++) {
      await h.round();
      await settle();
      await h.t.deps.db.updateTable('contacts').set({ next_action_time: h.clock.now() }).where('id', 'in', ids).where('status', '=', 'call_scheduled')
        .where('next_action_reason', 'like', 'another call%').execute();
    }
    const calls = await h.t.deps.db.selectFrom('calls').select(['start_time']).where('to_number', '=', phone).orderBy('start_time').execute();
    expect(calls).toHaveLength(2);
    const capped = (await Promise.all(ids.map((id) => h.contact(id)))).find((c) => c.calls_attempts === 0)!;
    expect(capped.status).toBe('call_scheduled');
    expect(capped.next_action_reason).toMatch(/^frequency cap/);
    expect(new Date(capped.next_action_time).getTime()).toBe(new Date(calls[0]!.start_time!).getTime() + 86_400_000);
    await api('PUT', '/api/v1/compliance/settings', { quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_calls_per_day: 3, max_calls_per_week: 7 });
  });

  it('an opt-out in the conversation suppresses the number with the call as its source, ends the contact and its namesakes', async () => {
    h.clock.set('2030-01-11T15:00:00Z');
    const phone = nyNumber();
    const campaign = await h.campaign(OPEN);
    const other = await h.campaign(OPEN);
    const [id] = await h.contacts(campaign, [phone]);
    const [namesake] = await h.contacts(other, [phone]);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(1);
    const [call] = await h.callsOf(id!);
    await finishCall({ deps: h.t.deps, callId: call.id, outcome: { status: 'finished', transcript: [
      { role: 'assistant', text: 'Hi, this is Acme about your renewal.' },
      { role: 'user', text: 'Please take me off your list and stop calling me.' },
    ] } });
    const ended = (await h.callsOf(id!))[0];
    expect(ended.call_data.opt_out).toMatchObject({ detected_by: 'offline', language: 'en' });
    expect(await h.contact(id!)).toMatchObject({ status: 'do_not_disturb', next_action_time: null });
    expect((await h.contact(namesake!)).status).toBe('do_not_disturb');
    const listed = (await api('GET', `/api/v1/suppressions/lookup?phone_number=${encodeURIComponent(phone)}`)).json();
    expect(listed).toMatchObject({ suppressed: true, suppression: { source: 'opt_out', call_id: call.id } });
  });

  it('calls from the number that best matches the contact, and passes over a number at its daily cap', async () => {
    h.clock.set('2030-01-12T16:00:00Z');
    await h.t.deps.db.insertInto('account_compliance').values({ owner_id: h.account.id, quiet_hours_from: '00:00', quiet_hours_to: '24:00', max_calls_per_day: 3, max_calls_per_week: 7, updated_at: new Date() })
      .onConflict((oc) => oc.column('owner_id').doUpdateSet({ quiet_hours_from: '00:00', quiet_hours_to: '24:00' })).execute();
    const phones = ['+12125550181', '+14155550182', '+442079460183'];
    const campaign = await h.campaign({ ...OPEN, phones });
    await h.t.deps.db.updateTable('phone_numbers').set({ daily_cap: 1 }).where('phone_number', '=', '+14155550182').execute();
    const [sf1, sf2, london, denver] = await h.contacts(campaign, ['+14155550901', '+14155550902', '+442079460904', '+13035550905']);
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(4);
    const from = async (id: number) => (await h.callsOf(id))[0];
    const byArea = [await from(sf1!), await from(sf2!)];
    expect(byArea.map((c) => c.from_number).sort()).toEqual(['+12125550181', '+14155550182']);
    expect(byArea.find((c) => c.from_number === '+14155550182').call_data.caller_id.reason).toBe('same area code as the contact');
    expect(byArea.find((c) => c.from_number === '+12125550181').call_data.caller_id.reason).toMatch(/same country as the contact \(1 number\(s\) at their daily cap\)/);
    expect((await from(london!)).from_number).toBe('+442079460183');
    expect((await from(denver!)).call_data.caller_id.reason).toMatch(/^same country/);
    await settle();
  });

  it('lets a suppressed number still call the inbound campaign', async () => {
    const phone = nyNumber();
    expect((await api('POST', '/api/v1/suppressions/', { phone_number: phone })).statusCode).toBe(200);
    const inbound = await api('POST', '/api/v1/campaigns/', { title: 'Help line', campaign_type: 'Inbound' });
    const number = '+12125550999';
    expect((await api('POST', '/api/v1/phone-numbers/', { phone_number: number, campaign_id: inbound.json().id })).statusCode).toBe(200);
    const res = await api('POST', '/api/v1/voice/sim/inbound', { from: phone, to: number });
    expect(res.statusCode, res.body).toBe(200);
  });
});
