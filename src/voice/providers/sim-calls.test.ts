import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';

/**
 * The simulator's people through the whole service: dialled by the dialer, their end events
 * applied by the events service, as an operator's first campaign on VOICE_PROVIDER=sim.
 */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness();
});
afterAll(async () => h?.close());

const HOUR = 3600_000;
const PROMPT = 'You call customers about heat pumps. Offer a free survey.';

async function campaignWithWebhook(fields: Record<string, unknown> = {}) {
  const c = await h.campaign({ title: 'Heat pumps', campaign_data: { prompt: PROMPT }, ...fields });
  const hook = await h.t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: h.account.headers, payload: { url: 'https://example.com/hook', campaign_ids: [c], request_schema: 'summary - short summary of the call' } });
  expect(hook.statusCode, hook.body).toBe(200);
  return c;
}

async function dialAll(c: number) {
  await h.enqueue(c);
  await h.round(c);
  await h.advance(2 * HOUR);
}

const deliveriesOf = (callId: number) => h.t.deps.db.selectFrom('webhook_deliveries').selectAll().where('call_id', '=', callId).execute();

describe('simulated people on dialled calls', () => {
  it('an interested person ends the call interested, greeted with the assistant\'s first message, and fires the default webhook', async () => {
    const assistant = await h.t.deps.db.insertInto('assistants')
      .values({ owner_id: h.account.id, name: 'Sam', provider: 'sim', first_message: 'Hi {{contact.name}}, this is Sam from {{campaign.title}}.' })
      .returning('id').executeTakeFirstOrThrow();
    const c = await campaignWithWebhook({ assistant_id: assistant.id });
    const [id] = await h.contacts(c, [usNumber()], { contact_data: { name: 'Ada', _sim: { persona: 'interested' } } });
    await dialAll(c);
    const [call] = await h.callsOf(id!);
    expect(call).toMatchObject({ status: 'finished', action_status: 'interested', action_status_reason: 'asked for the details' });
    expect(['HUMAN', 'AI']).toContain(call.call_ended_by);
    expect(call.call_data.transcript[0]).toEqual({ role: 'assistant', text: 'Hi Ada, this is Sam from Heat pumps.' });
    expect(call.call_data.transcript.length).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(call.call_data.transcript)).not.toContain('heat pumps');
    expect(await deliveriesOf(call.id)).toHaveLength(1);
    expect((await h.contact(id!)).status).toBe('finished');
  });

  it('a person asking to be removed leaves the number on the do-not-call list', async () => {
    const c = await campaignWithWebhook();
    const phone = usNumber();
    const [id] = await h.contacts(c, [phone], { contact_data: { name: 'Bo', _sim: { persona: 'opt_out' } } });
    await dialAll(c);
    const [call] = await h.callsOf(id!);
    expect(call).toMatchObject({ status: 'finished', action_status: null });
    expect(call.call_data.opt_out).toMatchObject({ detected_by: 'offline' });
    const suppression = await h.t.deps.db.selectFrom('suppressions').selectAll().where('owner_id', '=', h.account.id).where('phone_number', '=', phone).executeTakeFirst();
    expect(suppression).toMatchObject({ source: 'opt_out', call_id: call.id });
    expect((await h.contact(id!)).status).toBe('do_not_disturb');
    // Only interested calls are sent: the delivery is recorded as skipped, naming that filter.
    expect(await deliveriesOf(call.id)).toMatchObject([{ status: 'skipped', skipped_by: 'only_interested' }]);
  });

  it('a campaign left to the simulator\'s own mix shows varied outcomes and never the prompt', async () => {
    const c = await campaignWithWebhook();
    const ids = await h.contacts(c, Array.from({ length: 80 }, () => usNumber()), { contact_data: { name: 'Cy' } });
    await dialAll(c);
    const calls = (await Promise.all(ids.map((id) => h.callsOf(id)))).flat();
    expect(calls).toHaveLength(80);
    const finished = calls.filter((k) => k.status === 'finished');
    const actions = new Set(finished.map((k) => k.action_status));
    expect(actions.has('interested')).toBe(true);
    expect(actions.size).toBeGreaterThanOrEqual(3);
    expect(new Set(finished.map((k) => JSON.stringify(k.call_data.transcript))).size).toBeGreaterThan(finished.length / 2);
    expect(calls.some((k) => JSON.stringify(k.call_data.transcript ?? []).includes('heat pumps'))).toBe(false);
    const interested = finished.filter((k) => k.action_status === 'interested');
    for (const k of interested) expect(await deliveriesOf(k.id)).toHaveLength(1);
    // What the operator's analytics page shows for the campaign: neither 0 % nor 100 % success.
    const start = new Date(h.clock.now().getTime() - 24 * HOUR).toISOString();
    const end = new Date(h.clock.now().getTime() + HOUR).toISOString();
    const res = await h.t.request({ method: 'GET', url: `/api/v1/analytics/detailed?campaign_id=${c}&start_date=${start}&end_date=${end}`, headers: h.account.headers });
    expect(res.statusCode, res.body).toBe(200);
    const totals = res.json().totals;
    expect(totals.calls).toBe(80);
    expect(totals.successful).toBe(finished.filter((k) => ['interested', 'scheduled', 'transferred'].includes(k.action_status)).length);
    expect(totals.success_rate).toBeGreaterThan(0.1);
    expect(totals.success_rate).toBeLessThan(0.6);
  });
});
