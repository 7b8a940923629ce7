import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRetell, type FakeRetell, type RetellScript } from './fakes/retell.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { reconcileStaleCalls } from '../src/modules/dialer/call-events/reconciler.ts';
import { RETELL_SIGNATURE_HEADER, signRetell } from '../src/voice/providers/retell/retell-signature.ts';

/**
 * The whole product against a fake Retell over real sockets: an assistant naming a Retell
 * agent, a campaign that uses it, contacts dialled by the dialer in real time, Retell's signed
 * call_started / call_ended / call_analyzed back to the events route, the post-call webhook to
 * the customer; inbound through call_inbound.
 */
const KEY = 'key_fake_retell_0001';
const AGENT = 'agent_sales';
const DEFAULT_AGENT = 'agent_default';
const OUR_NUMBER = '+12125550100';
const INBOUND_NUMBER = '+12125550199';
const EVENTS = '/api/v1/voice/retell/events';
let fake: FakeRetell;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { RETELL_API_KEY: KEY, RETELL_BASE_URL: 'http://127.0.0.1:9', RETELL_AGENT_ID: DEFAULT_AGENT, RETELL_FROM_NUMBER: OUR_NUMBER, RETELL_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeRetell({
      apiKey: KEY, webhookUrl: `${serviceUrl}${EVENTS}`, fromNumbers: [OUR_NUMBER, INBOUND_NUMBER],
      agents: { [AGENT]: {}, [DEFAULT_AGENT]: {} }, maxConcurrent: 10,
      // A talk of 1.2 s: Retell's durations are in ms, ours in whole seconds.
      ringMs: 20, talkMs: 1200, analyzeMs: 20, costCentsPerMinute: 900,
    })),
    'RETELL_BASE_URL',
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const api: VendorScene['api'] = (...args) => s.api(...args);

async function assistant(fields: Record<string, unknown> = {}) {
  return s.assistant({
    name: 'Sales', provider: 'retell', provider_assistant_id: AGENT, first_message: 'Hi {{contact.name}}, this is {{campaign.title}}.',
    system_prompt: 'You call {{contact.name}} about {{campaign.title}}. Unknown: [{{contact.nothing}}]', max_duration_seconds: 300,
    action_status_rules: [{ action_status: 'interested', path: 'custom_analysis_data.interested', equals: true }], ...fields,
  });
}

const contact = (campaignId: number, phone: string, name: string) => s.contact(campaignId, phone, name);

const callsOf = (campaignId: number) => s.callsOf(campaignId);
const contactRow = (id: number) => s.contactRow(id);
/** Retell's id of our call: kept in call_provider_refs at the dial, on the row once an end names it. */
async function retellId(callId: number): Promise<string | null> {
  const ref = await s.t.deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', callId).executeTakeFirst();
  return ref?.provider_call_id ?? null;
}
const sentTo = (phone: string) => fake.calls.filter((c) => c.to_number === phone);
const settled = (campaignId: number, count: number, ms?: number) => s.settled(campaignId, count, ms);

describe('a campaign on Retell', () => {
  it('calls five contacts through the fake: statuses, duration, cost, transcript, recording, action status, retries and the webhook', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Spring offer', assistant_id: a.id, max_call_attempts: 2, call_interval: [30] });
    const hook = await api('POST', '/api/v1/integrations/webhooks/', { url: `${s.receiver.url}/crm`, request_schema: { name: 'client name' }, campaign_ids: [campaign.id], only_interested: true });
    expect(hook.statusCode, hook.body).toBe(200);
    const plan = { interested: '+12125550101', voicemail: '+12125550102', busy: '+12125550103', no_answer: '+12125550104', not_interested: '+12125550105' } as const;
    const ids: Record<string, number> = {};
    for (const [outcome, phone] of Object.entries(plan)) {
      fake.script(phone, outcome as RetellScript);
      ids[outcome] = await contact(campaign.id, phone, `Ann ${outcome}`);
    }
    expect((await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
    await settled(campaign.id, 5);
    // call_analyzed follows call_ended: wait until every call's analysis went out before reading the rows.
    await fake.idle();
    const calls = await callsOf(campaign.id);
    const byPhone = new Map(calls.map((c) => [c.to_number, c]));
    expect(byPhone.get(plan.interested)).toMatchObject({ status: 'finished', action_status: 'interested', provider: 'retell', call_ended_by: 'AI' });
    expect(byPhone.get(plan.voicemail)!.status).toBe('voicemail');
    expect(byPhone.get(plan.busy)!.status).toBe('busy_or_rejected');
    expect(byPhone.get(plan.no_answer)!.status).toBe('unavailable');
    expect(byPhone.get(plan.not_interested)).toMatchObject({ status: 'finished', action_status: null, call_ended_by: 'HUMAN' });

    const talked = byPhone.get(plan.interested)!;
    const vendorCall = fake.call(talked.external_session_id!)!;
    expect(vendorCall, talked.external_session_id ?? 'no external_session_id').toBeTruthy();
    expect(vendorCall.metadata).toMatchObject({ call_id: talked.id });
    expect(talked.call_duration).toBe(Math.round(vendorCall.duration_ms! / 1000));
    expect(talked.call_duration).toBeGreaterThan(0);
    // Retell charges in cents; we store dollars.
    expect(vendorCall.call_cost!.combined_cost).toBeGreaterThan(0);
    expect(Number(talked.cost)).toBeCloseTo(vendorCall.call_cost!.combined_cost / 100, 6);
    expect(talked.record_url).toBe(vendorCall.recording_url);
    const data = talked.call_data as { transcript: { role: string; text: string }[]; analysis?: { custom_analysis_data?: unknown } };
    expect(data.transcript).toEqual([
      { role: 'assistant', text: 'Hi Ann interested, do you have a minute?' },
      { role: 'user', text: 'Yes, tell me more, I am interested.' },
    ]);
    expect(data.analysis?.custom_analysis_data).toEqual({ interested: true });
    expect((byPhone.get(plan.not_interested)!.call_data as { analysis?: unknown }).analysis).toMatchObject({ custom_analysis_data: { interested: false } });

    // What Retell received: our numbers, the assistant's agent, our call id, the placeholders filled, the events URL.
    const [sent] = sentTo(plan.interested);
    expect(sent).toMatchObject({ from_number: OUR_NUMBER, to_number: plan.interested, override_agent_id: AGENT, metadata: { call_id: talked.id, campaign_id: campaign.id } });
    expect(sent!.retell_llm_dynamic_variables).toMatchObject({
      contact_name: 'Ann interested', campaign_title: 'Spring offer',
      system_prompt: 'You call Ann interested about Spring offer. Unknown: []',
    });
    expect(sent!.agent_override?.retell_llm?.begin_message).toBe('Hi Ann interested, this is Spring offer.');
    expect(sent!.agent_override?.agent?.webhook_url).toBe(`${s.baseUrl}${EVENTS}`);
    expect(sent!.agent_override?.agent?.max_call_duration_ms).toBe(300_000);
    // Every event Retell posted was accepted.
    expect(fake.deliveries.filter((d) => d.status !== 200)).toEqual([]);

    // Retries follow the mapping: busy, no answer and voicemail are tried again; a conversation is final.
    for (const outcome of ['busy', 'no_answer', 'voicemail'] as const) {
      expect(await contactRow(ids[outcome]!)).toMatchObject({ status: 'call_scheduled', calls_attempts: 1 });
    }
    expect((await contactRow(ids.interested!)).status).toBe('finished');
    expect((await contactRow(ids.not_interested!)).status).toBe('finished');

    // The customer's webhook fires once, for the interested call, with the extracted payload.
    const delivered = await waitFor(async () => (s.receiver.requests.filter((r) => r.url === '/crm').length >= 1 ? s.receiver.requests : null), 10_000);
    const crm = delivered.filter((r) => r.url === '/crm');
    expect(crm).toHaveLength(1);
    expect(JSON.parse(crm[0]!.body)).toHaveProperty('name');
    expect(fake.peakConcurrency).toBeLessThanOrEqual(10);
  });

  it('refuses a forged or stale signature with 401 and changes nothing', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    const phone = '+12125550141';
    fake.script(phone, 'lose_end');
    await contact(campaign.id, phone, 'Di');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call, vendorId] = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      const id = rows.length === 1 ? await retellId(rows[0]!.id) : null;
      return id ? [rows[0]!, id] as const : null;
    });
    // call_started is in: nothing else comes for this call ('lose_end'), so the rows below stay still.
    await waitFor(async () => fake.deliveries.some((d) => d.callId === vendorId && d.event === 'call_started' && d.status === 200));
    const vendorCall = { ...fake.call(vendorId)!, call_status: 'ended', disconnection_reason: 'user_hangup', end_timestamp: Date.now(), duration_ms: 30_000 };
    const body = JSON.stringify({ event: 'call_ended', call: vendorCall });
    const eventsBefore = await s.t.deps.db.selectFrom('voice_events').select('event_id').orderBy('event_id').execute();
    const before = await s.t.deps.db.selectFrom('calls').selectAll().where('id', '=', call.id).executeTakeFirstOrThrow();
    const post = (headers: Record<string, string>) => s.t.request({ method: 'POST', url: EVENTS, payload: body, headers: { 'content-type': 'application/json', ...headers } });
    expect((await post({ [RETELL_SIGNATURE_HEADER]: signRetell('key_someone_else', body, new Date()) })).statusCode).toBe(401);
    expect((await post({})).statusCode).toBe(401);
    expect((await post({ [RETELL_SIGNATURE_HEADER]: signRetell(KEY, body, new Date(Date.now() - 60 * 60_000)) })).statusCode).toBe(401);
    expect((await post({ [RETELL_SIGNATURE_HEADER]: signRetell(KEY, `${body} `, new Date()) })).statusCode).toBe(401);
    expect(await s.t.deps.db.selectFrom('voice_events').select('event_id').orderBy('event_id').execute()).toEqual(eventsBefore);
    expect(await s.t.deps.db.selectFrom('calls').selectAll().where('id', '=', call.id).executeTakeFirstOrThrow()).toEqual(before);
    // The same body, signed with the key, is taken: the refusals above were for the signature alone.
    expect((await post({ [RETELL_SIGNATURE_HEADER]: signRetell(KEY, body, new Date()) })).statusCode).toBe(200);
    expect((await callsOf(campaign.id))[0]!.status).toBe('finished');
    await fake.idle();
  });

  it('gives the attempt back when Retell refuses for its concurrency limit (429)', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
    const phone = '+12125550111';
    fake.script(phone, 'refuse');
    const refusalsBefore = fake.refusals;
    const id = await contact(campaign.id, phone, 'Bo');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const refused = await waitFor(async () => {
      const row = await contactRow(id);
      return row.next_action_reason?.includes('refused the call for its limits') ? row : null;
    }, 10_000);
    expect(refused).toMatchObject({ status: 'call_scheduled', calls_attempts: 0 });
    expect(await callsOf(campaign.id)).toEqual([]);
    expect(fake.refusals).toBeGreaterThan(refusalsBefore);
    expect(sentTo(phone).length).toBeGreaterThan(0);
  });

  it('settles a call whose end event was lost with GET /v2/get-call', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    const phone = '+12125550121';
    fake.script(phone, 'lose_end');
    await contact(campaign.id, phone, 'Cy');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call, vendorId] = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      const id = rows.length === 1 ? await retellId(rows[0]!.id) : null;
      return id ? [rows[0]!, id] as const : null;
    });
    // The call ends at Retell; no call_ended nor call_analyzed comes.
    await waitFor(async () => fake.call(vendorId)?.call_status === 'ended');
    await fake.idle();
    expect((await callsOf(campaign.id))[0]!.status).toBe('in progress');
    // The reconciler runs once the call is older than Retell's longest call (about 65 min): it
    // runs here with a clock past that; the app, its workers and the adapters keep the real one.
    await reconcileStaleCalls({ deps: { ...s.t.deps, clock: { now: () => new Date(Date.now() + 70 * 60_000) } } });
    const vendorCall = fake.call(vendorId)!;
    const row = (await callsOf(campaign.id))[0]!;
    expect(row.id).toBe(call.id);
    expect(row.status, JSON.stringify(row)).toBe('finished');
    expect(row.call_ended_by_reason, JSON.stringify(row)).not.toMatch(/reconciled/);
    expect(row.call_duration, JSON.stringify(row)).toBe(Math.round(vendorCall.duration_ms! / 1000));
    expect(Number(row.cost)).toBeCloseTo(vendorCall.call_cost!.combined_cost / 100, 6);
    expect(row.record_url).toBe(vendorCall.recording_url);
  });

  it('ends a call once whatever the order and repetition of its events', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 2 });
    const plan = { duplicate: '+12125550151', out_of_order: '+12125550152' } as const;
    const ids: Record<string, number> = {};
    for (const [script, phone] of Object.entries(plan)) {
      fake.script(phone, script as RetellScript);
      ids[script] = await contact(campaign.id, phone, `Ed ${script}`);
    }
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    await settled(campaign.id, 2);
    await fake.idle();
    const calls = await callsOf(campaign.id);
    expect(calls).toHaveLength(2);
    for (const [script, phone] of Object.entries(plan)) {
      const row = calls.find((c) => c.to_number === phone)!;
      const vendorCall = fake.call(row.external_session_id!)!;
      // The fake's 'duplicate' and 'out_of_order' calls end as agent_hangup: finished, the AI hung up.
      expect(row, script).toMatchObject({ status: 'finished', call_ended_by: 'AI' });
      expect(row.call_duration, script).toBe(Math.round(vendorCall.duration_ms! / 1000));
      expect(Number(row.cost), script).toBeCloseTo(vendorCall.call_cost!.combined_cost / 100, 6);
      expect((await contactRow(ids[script]!)), script).toMatchObject({ status: 'finished', calls_attempts: 1 });
      const events = fake.deliveries.filter((d) => d.callId === vendorCall.call_id);
      expect(events.every((d) => d.status === 200), JSON.stringify(events)).toBe(true);
      const stored = await s.t.deps.db.selectFrom('voice_events').select('event_id').where('provider', '=', 'retell').where('event_id', 'like', `%${vendorCall.call_id}`).execute();
      // Only end events are stored (progress events change nothing kept), each once.
      expect(stored.map((e) => e.event_id).sort(), script).toEqual([`call_analyzed:${vendorCall.call_id}`, `call_ended:${vendorCall.call_id}`]);
    }
  });

  it('asks for transcript_updated with our events URL and shows each turn once on the live board, though Retell resends the whole transcript', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Live turns', assistant_id: a.id, max_call_attempts: 1 });
    const phone = '+12125550141';
    // 'duplicate': every message twice, each update the transcript so far.
    fake.script(phone, 'duplicate');
    await contact(campaign.id, phone, 'Ann');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [row] = await settled(campaign.id, 1);
    expect(sentTo(phone)[0]!.agent_override?.agent?.webhook_events).toEqual(['call_started', 'call_ended', 'call_analyzed', 'transcript_updated']);
    const updates = fake.deliveries.filter((d) => d.callId === row!.external_session_id && d.event === 'transcript_updated');
    expect(updates.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    const turns = await s.t.deps.db.selectFrom('live_events').select('data').where('call_id', '=', row!.id).where('type', '=', 'call.turn').orderBy('id').execute();
    expect(turns.map((t) => t.data)).toEqual([
      expect.objectContaining({ seq: 0, role: 'assistant', text: 'Hi Ann, do you have a minute?' }),
      expect.objectContaining({ seq: 1, role: 'user', text: 'Yes, tell me more, I am interested.' }),
    ]);
  });
});

describe('an inbound call on Retell', () => {
  it('answers call_inbound with the number\'s campaign assistant and records an inbound call', async () => {
    const a = await assistant({ name: 'Reception', first_message: 'Thanks for calling {{campaign.title}}.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Front desk', campaign_type: 'Inbound', assistant_id: a.id, campaign_phone: null });
    const number = await api('POST', '/api/v1/phone-numbers/', { phone_number: INBOUND_NUMBER, campaign_id: campaign.id });
    expect(number.statusCode, number.body).toBe(200);
    const caller = '+12125550131';
    const rung = await fake.ring({ from: caller, to: INBOUND_NUMBER });
    expect(rung.status).toBe(200);
    expect(rung.callId).toBeTruthy();
    const answer = rung.answer!.call_inbound;
    expect(answer.override_agent_id).toBe(AGENT);
    expect(answer.dynamic_variables).toMatchObject({ campaign_title: 'Front desk' });
    expect(answer.agent_override?.retell_llm?.begin_message).toBe('Thanks for calling Front desk.');
    expect(answer.agent_override?.agent?.webhook_url).toBe(`${s.baseUrl}${EVENTS}`);
    const calls = await settled(campaign.id, 1, 10_000);
    await fake.idle();
    const row = (await callsOf(campaign.id))[0]!;
    expect(row).toMatchObject({ id: calls[0]!.id, call_type: 'inbound', from_number: caller, to_number: INBOUND_NUMBER, provider: 'retell', status: 'finished' });
    expect(answer.metadata).toMatchObject({ call_id: row.id });
    expect(row.call_duration).toBeGreaterThan(0);
    expect((row.call_data as { transcript?: unknown[] }).transcript?.length).toBeGreaterThan(1);
  });
});
