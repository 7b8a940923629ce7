import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { reconcileStaleCalls } from '../src/modules/dialer/call-events/reconciler.ts';

/**
 * The whole product against a fake Vapi over real sockets: an assistant, a campaign that uses
 * it, contacts dialled by the dialer in real time, Vapi's signed server messages back to the
 * events route, the post-call webhook to the customer; inbound through assistant-request.
 */
const KEY = 'fake-vapi-key-0001';
const SECRET = 'vapi-server-secret-0001';
const OUR_NUMBER = '+12125550100';
const AGENCY_KEY = 'agency-client-vapi-key-01';
const AGENCY_SECRET = 'agency-client-server-secret-01';
const INBOUND_NUMBER = '+12125550199';
let fake: FakeVapi;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`,
      phoneNumbers: { 'pn-out': OUR_NUMBER, 'pn-in': INBOUND_NUMBER, 'pn-agency': '+12125550177', 'pn-a': '+12125550181', 'pn-b': '+12125550182' }, otherApiKeys: [AGENCY_KEY], maxConcurrent: 10, ringMs: 20, talkMs: 80, timeScale: 60,
    })),
    'VAPI_BASE_URL',
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const api: VendorScene['api'] = (...args) => s.api(...args);

async function assistant(fields: Record<string, unknown> = {}) {
  return s.assistant({
    name: 'Sales', provider: 'vapi', first_message: 'Hi {{contact.name}}, this is {{campaign.title}}.',
    system_prompt: 'You call {{contact.name}} about {{campaign.title}}. Unknown: [{{contact.nothing}}]', max_duration_seconds: 300,
    action_status_rules: [{ action_status: 'interested', path: 'structuredData.interested', equals: true }], ...fields,
  });
}

const contact = (campaignId: number, phone: string, name: string) => s.contact(campaignId, phone, name);

const callsOf = (campaignId: number) => s.callsOf(campaignId);
const contactRow = (id: number) => s.contactRow(id);

describe('a campaign on Vapi', () => {
  it('calls five contacts through the fake: statuses, duration, cost, transcript, recording, action status, retries and the webhook', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Spring offer', assistant_id: a.id, max_call_attempts: 2, call_interval: [30] });
    const hook = await api('POST', '/api/v1/integrations/webhooks/', { url: `${s.receiver.url}/crm`, request_schema: { name: 'client name' }, campaign_ids: [campaign.id], only_interested: true });
    expect(hook.statusCode, hook.body).toBe(200);
    const plan = { interested: '+12125550101', voicemail: '+12125550102', busy: '+12125550103', no_answer: '+12125550104', not_interested: '+12125550105' } as const;
    const ids: Record<string, number> = {};
    for (const [outcome, phone] of Object.entries(plan)) {
      fake.script(phone, outcome as keyof typeof plan);
      ids[outcome] = await contact(campaign.id, phone, `Ann ${outcome}`);
    }
    expect((await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
    const calls = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      return rows.length === 5 && rows.every((r) => r.status !== 'in progress') ? rows : null;
    }, 20_000);
    const byPhone = new Map(calls.map((c) => [c.to_number, c]));
    expect(byPhone.get(plan.interested)).toMatchObject({ status: 'finished', action_status: 'interested', provider: 'vapi' });
    expect(byPhone.get(plan.voicemail)!.status).toBe('voicemail');
    expect(byPhone.get(plan.busy)!.status).toBe('busy_or_rejected');
    expect(byPhone.get(plan.no_answer)!.status).toBe('unavailable');
    expect(byPhone.get(plan.not_interested)).toMatchObject({ status: 'finished', action_status: null });
    const talked = byPhone.get(plan.interested)!;
    expect(talked.call_duration).toBeGreaterThan(0);
    expect(talked.cost).toBeGreaterThan(0);
    expect(talked.record_url).toMatch(/^https?:\/\//);
    expect(talked.external_session_id).toBe(fake.calls.find((c) => c.call.customer?.number === plan.interested)!.id);
    const data = talked.call_data as { transcript: { role: string; text: string }[]; analysis?: unknown };
    expect(data.transcript.length).toBeGreaterThan(1);
    expect(data.analysis).toBeTruthy();
    // Vapi was asked for final transcripts; each turn reached the live stream while the call ran, as the report tells it.
    const told = await s.t.deps.db.selectFrom('live_events').select(['type', 'data']).where('call_id', '=', talked.id).orderBy('id').execute();
    expect(told.filter((e) => e.type === 'call.turn').map((e) => ({ role: (e.data as { role: string }).role, text: (e.data as { text: string }).text }))).toEqual(data.transcript);
    expect(told.map((e) => e.type).at(-1)).toBe('call.ended');

    // What Vapi received: our call id in the metadata, placeholders filled (unknown ones empty), our number, the events URL.
    const sent = fake.calls.find((c) => c.call.customer?.number === plan.interested)!.request as Record<string, any>;
    expect(sent.phoneNumberId).toBe('pn-out');
    const body = JSON.stringify(sent);
    expect(body).toContain('Hi Ann interested, this is Spring offer.');
    expect(body).toContain('Unknown: []');
    expect(body).toContain(`"call_id":${talked.id}`);
    expect(body).toContain(`${s.baseUrl}/api/v1/voice/vapi/events`);
    expect(sent.assistant.serverMessages).toEqual(['status-update', 'transcript[transcriptType="final"]', 'end-of-call-report']);

    // Retries follow the mapping: busy, no answer and voicemail are tried again; a conversation is final.
    for (const outcome of ['busy', 'no_answer', 'voicemail'] as const) {
      expect(await contactRow(ids[outcome]!)).toMatchObject({ status: 'call_scheduled', calls_attempts: 1 });
    }
    expect((await contactRow(ids.interested!)).status).toBe('finished');

    // The customer's webhook fires once, for the interested call, with the extracted payload.
    const delivered = await waitFor(async () => (s.receiver.requests.filter((r) => r.url === '/crm').length >= 1 ? s.receiver.requests : null), 10_000);
    const crm = delivered.filter((r) => r.url === '/crm');
    expect(crm).toHaveLength(1);
    expect(JSON.parse(crm[0]!.body)).toHaveProperty('name');
    expect(fake.peakConcurrency).toBeLessThanOrEqual(10);
  });

  it('refuses a forged or stale signature with 401 and changes nothing', async () => {
    const body = JSON.stringify({ message: { type: 'end-of-call-report', endedReason: 'customer-ended-call', call: { id: 'forged', assistantOverrides: { metadata: { call_id: 1 } } } } });
    const post = (headers: Record<string, string>) => s.t.request({ method: 'POST', url: '/api/v1/voice/vapi/events', payload: body, headers: { 'content-type': 'application/json', ...headers } });
    expect((await post({ 'x-vapi-secret': 'wrong-secret-000' })).statusCode).toBe(401);
    expect((await post({})).statusCode).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    const mac = createHmac('sha256', SECRET).update(`${old}.${body}`).digest('hex');
    expect((await post({ 'x-timestamp': old, 'x-signature': mac })).statusCode).toBe(401);
    expect(await s.t.deps.db.selectFrom('voice_events').select('event_id').where('provider', '=', 'vapi').where('event_id', 'like', '%forged%').execute()).toEqual([]);
  });

  it('gives the attempt back when Vapi refuses for its concurrency limit, and calls again later', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
    const phone = '+12125550111';
    fake.script(phone, 'refuse');
    const id = await contact(campaign.id, phone, 'Bo');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const refused = await waitFor(async () => {
      const row = await contactRow(id);
      return row.next_action_reason?.includes('refused the call for its limits') ? row : null;
    }, 10_000);
    expect(refused).toMatchObject({ status: 'call_scheduled', calls_attempts: 0 });
    expect(await callsOf(campaign.id)).toEqual([]);
    expect(fake.refusals).toBeGreaterThan(0);
  });

  it('settles a call whose end event was lost with GET /call/{id}', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    const phone = '+12125550121';
    fake.script(phone, 'lose_end');
    await contact(campaign.id, phone, 'Cy');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call] = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      return rows.length === 1 ? rows : null;
    });
    // The call ends at the vendor; its end-of-call-report never comes.
    await waitFor(async () => fake.calls.find((c) => c.call.customer?.number === phone)?.call.status === 'ended');
    await fake.idle();
    expect((await callsOf(campaign.id))[0]!.status).toBe('in progress');
    // The reconciler runs once the call is older than Vapi's longest call: it runs here with a
    // clock past that; the app, its workers and the adapters keep the real one.
    await reconcileStaleCalls({ deps: { ...s.t.deps, clock: { now: () => new Date(Date.now() + 30 * 60_000) } } });
    const settled = (await callsOf(campaign.id))[0]!;
    expect(settled.id).toBe(call!.id);
    expect(settled.status, JSON.stringify(settled)).not.toBe('in progress');
    expect(settled.call_ended_by_reason, JSON.stringify(settled)).not.toMatch(/reconciled/);
    expect(settled.call_duration, JSON.stringify(settled)).toBeGreaterThan(0);
  });
});

describe('caller ID on Vapi', () => {
  it("rotates over the campaign's numbers by their Vapi phoneNumberId", async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    for (const [number, id] of [['+12125550181', 'pn-a'], ['+12125550182', 'pn-b']] as const) {
      const res = await api('POST', '/api/v1/phone-numbers/', { phone_number: number, campaign_id: campaign.id, provider_number_id: id });
      expect(res.statusCode, res.body).toBe(200);
    }
    const phones = ['+12125550151', '+12125550152', '+12125550153', '+12125550154'];
    for (const phone of phones) await contact(campaign.id, phone, 'Ed');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const calls = await s.settled(campaign.id, 4);
    const sent = phones.map((phone) => (fake.calls.find((c) => c.call.customer?.number === phone)!.request as { phoneNumberId: string }).phoneNumberId);
    expect(new Set(sent)).toEqual(new Set(['pn-a', 'pn-b']));
    // The number recorded on each call is the one its phoneNumberId names.
    for (const call of calls) {
      const id = (fake.calls.find((c) => c.call.customer?.number === call.to_number)!.request as { phoneNumberId: string }).phoneNumberId;
      expect(call.from_number).toBe(id === 'pn-a' ? '+12125550181' : '+12125550182');
    }
  });
});

describe("an account's own Vapi credentials (a voice connection)", () => {
  it('places the calls of an assistant that names the connection with its key, and checks its events with its secret', async () => {
    const created = await api('POST', '/api/v1/voice-connections/', { name: 'Client A', provider: 'vapi', api_key: AGENCY_KEY, webhook_secret: AGENCY_SECRET, phone_number_id: 'pn-agency' });
    expect(created.statusCode, created.body).toBe(200);
    const connection = created.json() as { id: number; api_key: string; events_url: string };
    expect(connection.api_key).not.toContain(AGENCY_KEY);
    expect(connection.events_url).toBe(`${s.baseUrl}/api/v1/voice/vapi/events?connection=${connection.id}`);
    const a = await assistant({ voice_connection_id: connection.id });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    const phone = '+12125550141';
    fake.script(phone, 'interested');
    await contact(campaign.id, phone, 'Di');
    await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call] = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      return rows.length === 1 && rows[0]!.status !== 'in progress' ? rows : null;
    }, 15_000);
    expect(call).toMatchObject({ status: 'finished', provider: 'vapi', voice_connection_id: connection.id });
    const sent = fake.calls.find((c) => c.call.customer?.number === phone)!.request as Record<string, any>;
    expect(sent.phoneNumberId).toBe('pn-agency');
    const server = sent.assistantOverrides?.server ?? sent.assistant?.server;
    expect(server.url).toBe(connection.events_url);
    expect(server.headers['x-vapi-secret']).toBe(AGENCY_SECRET);
    // The service's own secret does not open the connection's events route, nor the connection's the service's.
    const body = JSON.stringify({ message: { type: 'status-update', status: 'ringing', call: { id: 'x' } } });
    const post = (url: string, secret: string) => s.t.request({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', 'x-vapi-secret': secret } });
    expect((await post(`/api/v1/voice/vapi/events?connection=${connection.id}`, SECRET)).statusCode).toBe(401);
    expect((await post('/api/v1/voice/vapi/events', AGENCY_SECRET)).statusCode).toBe(401);
    expect((await post(`/api/v1/voice/vapi/events?connection=${connection.id}`, AGENCY_SECRET)).statusCode).toBe(200);
    expect((await post('/api/v1/voice/vapi/events?connection=999999', AGENCY_SECRET)).statusCode).toBe(404);
  });
});

describe('an inbound call on Vapi', () => {
  it('answers assistant-request with the number\'s campaign assistant and records an inbound call', async () => {
    const a = await assistant({ name: 'Reception', first_message: 'Thanks for calling {{campaign.title}}.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Front desk', campaign_type: 'Inbound', assistant_id: a.id, campaign_phone: null });
    const number = await api('POST', '/api/v1/phone-numbers/', { phone_number: INBOUND_NUMBER, campaign_id: campaign.id, provider_number_id: 'pn-in' });
    expect(number.statusCode, number.body).toBe(200);
    const { answer } = await fake.ring({ from: '+12125550131', toPhoneNumberId: 'pn-in' });
    expect(JSON.stringify(answer)).toContain('Thanks for calling Front desk.');
    const calls = await waitFor(async () => {
      const rows = await callsOf(campaign.id);
      return rows.length === 1 && rows[0]!.status !== 'in progress' ? rows : null;
    }, 10_000);
    expect(calls[0]).toMatchObject({ call_type: 'inbound', from_number: '+12125550131', to_number: INBOUND_NUMBER, provider: 'vapi' });
  });
});
