import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';
import { createAccount } from '../../../../test/helpers/factories.ts';

let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness();
});
afterAll(async () => h?.close());

const HOUR = 3600_000;

describe('enqueue operations', () => {
  it('queues every new contact of the campaign and answers the Message object', async () => {
    const c = await h.campaign();
    const ids = await h.contacts(c, [usNumber(), usNumber(), usNumber()]);
    await h.contacts(c, [usNumber()], { status: 'finished' });
    const res = await h.enqueue(c);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatchObject({ message: 'Queued 3 contacts', user_id: h.account.id, campaign_id: c, contact_id: 0, call_id: null, role_id: 'user', source: 'api' });
    for (const id of ids) expect(await h.contact(id)).toMatchObject({ status: 'added_to_queue', next_action_code: 'queued', next_action_reason: 'queued by campaign enqueue' });
  });

  it('queues at most limit contacts of a status, oldest first, and rejects limit 0', async () => {
    const c = await h.campaign({ is_paused: true });
    const ids = await h.contacts(c, [usNumber(), usNumber(), usNumber()], { status: 'no_answer' });
    const bad = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${c}?status=no_answer&limit=0`, headers: h.account.headers });
    expect(bad.statusCode).toBe(422);
    const missing = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${c}`, headers: h.account.headers });
    expect(missing.statusCode).toBe(422);
    const res = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${c}?status=no_answer&limit=2`, headers: h.account.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Queued 2 contacts');
    expect((await h.contact(ids[0]!)).status).toBe('added_to_queue');
    expect((await h.contact(ids[1]!)).status).toBe('added_to_queue');
    expect((await h.contact(ids[2]!)).status).toBe('no_answer');
  });

  it('answers 404 for an unknown campaign and 403 for another account\'s campaign', async () => {
    const other = await createAccount(h.t);
    const theirs = await h.campaign({ owner_id: other.id });
    const [id] = await h.contacts(theirs, [usNumber()], { owner_id: other.id });
    expect((await h.enqueue(999_999)).statusCode).toBe(404);
    const res = await h.t.request({ method: 'POST', url: `/api/v1/campaigns/enqueue_calls/${theirs}`, headers: h.account.headers });
    expect(res.statusCode).toBe(403);
    const res2 = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${theirs}?status=new`, headers: h.account.headers });
    expect(res2.statusCode).toBe(403);
    expect((await h.contact(id!)).status).toBe('new');
  });
});

/** Dials one contact whose outcome is fixed by contact_data._sim and lets the call end. */
async function callOnce(campaignFields: Record<string, unknown>, sim: Record<string, unknown>) {
  const c = await h.campaign(campaignFields);
  const [id] = await h.contacts(c, [usNumber()], { contact_data: { name: 'Ada', _sim: sim } });
  await h.enqueue(c);
  expect(await h.round(c)).toBe(1);
  const during = await h.contact(id!);
  expect(during).toMatchObject({ status: 'in progress', next_action_code: 'calling', next_action_reason: 'call 1 in progress' });
  await h.advance(2 * HOUR);
  return { campaign: c, id: id!, contact: await h.contact(id!), calls: await h.callsOf(id!) };
}

describe('what a call\'s end does to its contact', () => {
  it('ends the contact as finished after a conversation and records the call', async () => {
    const { contact, calls } = await callOnce({ title: 'Survey', campaign_data: { prompt: 'Ask about the new bakery. Be kind.' } }, { status: 'finished', duration: 90, action_status: 'interested' });
    expect(contact).toMatchObject({ status: 'finished', calls_attempts: 1, next_action_time: null, next_action_code: 'completed' });
    expect(calls).toHaveLength(1);
    const call = calls[0];
    expect(call).toMatchObject({ status: 'finished', call_type: 'outbound', call_duration: 90, action_status: 'interested', campaign_title: 'Survey', from_number: '+12125550100' });
    expect(call.cost).toBeCloseTo(0.135, 4);
    expect(call.contact_data.name).toBe('Ada');
    expect(call.call_data.provider).toBe('sim');
    // The simulated agent greets the contact by name and never reads the prompt aloud.
    expect(call.call_data.transcript[0].text).toContain('Ada');
    expect(JSON.stringify(call.call_data.transcript)).not.toContain('bakery');
    expect(call.end_time.getTime()).toBeGreaterThan(call.start_time.getTime());
    expect(call.record_url).toBe(`/api/v1/calls/${call.id}/simulated-recording`);
  });

  for (const [status, exhausted] of [['busy_or_rejected', 'busy'], ['rejected', 'busy'], ['unavailable', 'no_answer'], ['voicemail', 'no_answer'], ['silence', 'not_reached'], ['terminated', 'not_reached'], ['failed', 'failed']] as const) {
    it(`retries after '${status}' while attempts remain, then ends as ${exhausted}`, async () => {
      const c = await h.campaign({ max_call_attempts: 3, call_interval: [10, 30] });
      const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status } } });
      await h.enqueue(c);
      await h.round();
      const t0 = h.clock.now().getTime();
      await h.advance(60_000 * 5);
      let contact = await h.contact(id!);
      expect(contact).toMatchObject({ status: 'call_scheduled', calls_attempts: 1, next_action_code: 'retry_scheduled' });
      // the first retry waits call_interval[0] minutes from the end of the call
      expect(contact.next_action_time.getTime() - t0).toBeGreaterThanOrEqual(10 * 60_000);
      expect(contact.next_action_time.getTime() - t0).toBeLessThan(15 * 60_000);
      expect(await h.round(c)).toBe(0); // not due yet
      await h.advance(10 * 60_000);
      expect(await h.round(c)).toBe(1);
      const t1 = h.clock.now().getTime();
      await h.advance(60_000 * 5);
      contact = await h.contact(id!);
      expect(contact.next_action_time.getTime() - t1).toBeGreaterThanOrEqual(30 * 60_000);
      await h.advance(40 * 60_000);
      expect(await h.round(c)).toBe(1);
      await h.advance(60_000 * 5);
      contact = await h.contact(id!);
      expect(contact).toMatchObject({ status: exhausted, calls_attempts: 3, next_action_time: null, next_action_code: 'completed' });
      expect(await h.callsOf(id!)).toHaveLength(3);
    });
  }

  it('ends after one call when max_call_attempts is null', async () => {
    const { contact } = await callOnce({ max_call_attempts: null }, { status: 'voicemail' });
    expect(contact).toMatchObject({ status: 'no_answer', calls_attempts: 1 });
  });

  it('ends an invalid number as invalid_number without retry', async () => {
    const { contact, calls } = await callOnce({ max_call_attempts: 5 }, { status: 'invalid number' });
    expect(contact.status).toBe('invalid_number');
    expect(calls[0].status).toBe('invalid number');
  });

  it('pauses the campaign on insufficient funds and puts the contact back in the queue without counting the attempt', async () => {
    const { campaign, contact } = await callOnce({ max_call_attempts: 2 }, { status: 'insufficient funds' });
    expect(contact).toMatchObject({ status: 'awaiting_queue', calls_attempts: 0, next_action_code: 'insufficient_funds' });
    const row = await h.t.deps.db.selectFrom('campaigns').select('is_paused').where('id', '=', campaign).executeTakeFirstOrThrow();
    expect(row.is_paused).toBe(true);
    // resuming the campaign brings the contact back
    await h.t.deps.db.updateTable('campaigns').set({ is_paused: false }).where('id', '=', campaign).execute();
    await h.round();
    expect((await h.contact(contact.id)).status).toBe('in progress');
    await h.advance(2 * HOUR);
  });

  it('keeps a status a user set during the call (do_not_disturb)', async () => {
    const c = await h.campaign({ max_call_attempts: 3 });
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: { status: 'voicemail' } } });
    await h.enqueue(c);
    await h.round();
    await h.t.deps.db.updateTable('contacts').set({ status: 'do_not_disturb' }).where('id', '=', id!).execute();
    await h.advance(HOUR);
    expect((await h.contact(id!)).status).toBe('do_not_disturb');
    expect((await h.callsOf(id!))[0].status).toBe('voicemail');
  });

  it('gives one more call past max_call_attempts on an explicit enqueue', async () => {
    const { campaign, id, contact } = await callOnce({ max_call_attempts: 1 }, { status: 'voicemail' });
    expect(contact.status).toBe('no_answer');
    const res = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${campaign}?status=no_answer`, headers: h.account.headers });
    expect(res.json().message).toBe('Queued 1 contact');
    expect(await h.round(campaign)).toBe(1);
    await h.advance(HOUR);
    expect(await h.contact(id)).toMatchObject({ status: 'no_answer', calls_attempts: 2 });
    expect(await h.round(campaign)).toBe(0);
  });

  it('never dials do_not_disturb or paused contacts', async () => {
    const c = await h.campaign();
    const ids = await h.contacts(c, [usNumber(), usNumber()], { status: 'do_not_disturb' });
    const res = await h.t.request({ method: 'POST', url: `/api/v1/contacts/enqueue_calls/${c}?status=do_not_disturb`, headers: h.account.headers });
    expect(res.json().message).toBe('Queued 0 contacts');
    await h.round();
    expect(await h.callsOf(ids[0]!)).toHaveLength(0);
  });

  it('rotates the from number over the campaign\'s phone numbers', async () => {
    const c = await h.campaign({ phones: ['+12125550201', '+12125550202'] });
    const ids = await h.contacts(c, [usNumber(), usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 30 } } });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(4);
    const froms = new Set<string>();
    for (const id of ids) froms.add((await h.callsOf(id))[0].from_number);
    expect([...froms].sort()).toEqual(['+12125550201', '+12125550202']);
    await h.advance(HOUR);
  });
});
