import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';
import { createAccount } from '../../../../test/helpers/factories.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../../../voice/signature.ts';
import { VoiceProviderError, type VoiceProvider } from '../../../voice/provider.ts';
import { connectProviderEvents } from './provider-events.ts';

let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
});
afterAll(async () => h?.close());

const MIN = 60_000;
const post = (body: string, signature: string | undefined, provider = 'sim') =>
  h.t.request({ method: 'POST', url: `/api/v1/voice/${provider}/events`, payload: body, headers: { 'content-type': 'application/json', ...(signature ? { [SIGNATURE_HEADER]: signature } : {}) } });
const sign = (body: string) => signBody(webhookSecret(h.t.config), body, h.clock.now());

async function startOne(sim: Record<string, unknown>, campaignFields: Record<string, unknown> = {}) {
  const c = await h.campaign(campaignFields);
  const [id] = await h.contacts(c, [usNumber()], { contact_data: { _sim: sim } });
  await h.enqueue(c);
  expect(await h.round(c)).toBe(1);
  const [call] = await h.callsOf(id!);
  return { c, id: id!, call };
}

describe('the provider events route', () => {
  it('rejects a missing or wrong signature with 401 and an unknown provider with 404', async () => {
    const body = JSON.stringify({ events: [] });
    expect((await post(body, undefined)).statusCode).toBe(401);
    expect((await post(body, sign(body).replace(/v1=./, 'v1=0'))).statusCode).toBe(401);
    expect((await post(body, signBody('another-secret-entirely-000000000', body, h.clock.now()))).statusCode).toBe(401);
    expect((await post(body, sign(body), 'vapi')).statusCode).toBe(404);
    expect((await post(body, sign(body))).statusCode).toBe(200);
  });

  it('ignores a repeated event and keeps a terminal status; a late event only fills empty fields', async () => {
    const { id, call } = await startOne({ status: 'finished', duration: 40 });
    const ended = { id: 'evt-end-x', type: 'ended', call_id: `sim-${call.id}`, metadata: { call_id: call.id }, timestamp: h.clock.now().toISOString(), status: 'voicemail', duration: 20, cost: 0.01 };
    const body = JSON.stringify({ events: [ended] });
    const first = await post(body, sign(body));
    expect(first.json()).toMatchObject({ applied: 1, duplicates: 0 });
    const again = await post(body, sign(body));
    expect(again.json()).toMatchObject({ applied: 0, duplicates: 1 });
    // a later, different end event does not change the outcome
    const other = JSON.stringify({ events: [{ ...ended, id: 'evt-end-y', status: 'finished', duration: 99, record_url: 'https://rec.example/late.wav' }] });
    expect((await post(other, sign(other))).json()).toMatchObject({ applied: 1 });
    const [row] = await h.callsOf(id);
    expect(row).toMatchObject({ status: 'voicemail', call_duration: 20, record_url: 'https://rec.example/late.wav' });
    // the simulator's own events arrive later and change nothing either
    await h.advance(10 * MIN);
    expect((await h.callsOf(id))[0]).toMatchObject({ status: 'voicemail', call_duration: 20 });
    expect((await h.contact(id)).calls_attempts).toBe(1);
  });
});

describe('events in batches', () => {
  it('finds a call by the provider\'s id alone, which the API shows while the call is in progress', async () => {
    const { id, call } = await startOne({ status: 'finished', duration: 600 });
    const listed = await h.t.request({ method: 'GET', url: `/api/v1/calls/?call_id=${call.id}`, headers: h.account.headers });
    expect(listed.json().data[0]).toMatchObject({ status: 'in progress', external_session_id: `sim-${call.id}` });
    // A vendor that does not echo our call id: only its own id names the call.
    const ended = { id: 'evt-by-provider-id', type: 'ended', call_id: `sim-${call.id}`, metadata: { call_id: null }, timestamp: h.clock.now().toISOString(), status: 'busy_or_rejected', duration: 0, cost: 0 };
    const body = JSON.stringify({ events: [ended] });
    expect((await post(body, sign(body))).json()).toMatchObject({ applied: 1, unknown_calls: 0 });
    const [row] = await h.callsOf(id);
    expect(row).toMatchObject({ status: 'busy_or_rejected', external_session_id: `sim-${call.id}` });
  });

  it('applies an end and a recording that arrive together as the two would apply one after the other', async () => {
    const { id, call } = await startOne({ status: 'finished', duration: 600 });
    const base = { call_id: `sim-${call.id}`, metadata: { call_id: call.id }, timestamp: h.clock.now().toISOString() };
    const transcript = [{ role: 'assistant', text: 'Hello' }, { role: 'user', text: 'Hi' }];
    const events = [
      { ...base, id: 'evt-rec-1', type: 'recording', record_url: 'https://rec.example/1.wav' },
      { ...base, id: 'evt-end-1', type: 'ended', status: 'finished', duration: 42, cost: 0.05, transcript, action_status: 'interested' },
      { ...base, id: 'evt-unknown', type: 'ended', call_id: 'sim-none', metadata: { call_id: null }, status: 'finished' },
    ];
    const body = JSON.stringify({ events });
    expect((await post(body, sign(body))).json()).toMatchObject({ received: 3, applied: 2, duplicates: 0, unknown_calls: 1 });
    const [row] = await h.callsOf(id);
    expect(row).toMatchObject({ status: 'finished', call_duration: 42, record_url: 'https://rec.example/1.wav', action_status: 'interested' });
    expect(row.call_data.transcript).toEqual(transcript);
    expect((await h.contact(id)).status).toBe('finished');
  });
});

describe('calls whose outcome is unknown', () => {
  it('ends a call with no end event as failed after its maximum duration, and retries the contact', async () => {
    const { id, call } = await startOne({ lost: true }, { max_call_attempts: 2, call_interval: [5] });
    await h.advance(5 * MIN);
    await h.round();
    expect((await h.callsOf(id))[0].status).toBe('in progress');
    await h.advance(h.t.deps.voice.capabilities.reconcileAfterMs);
    await h.round();
    const [row] = await h.callsOf(id);
    expect(row.id).toBe(call.id);
    expect(row.status).toBe('failed');
    expect(row.call_data.ended_reason).toContain('no end event');
    expect(await h.contact(id)).toMatchObject({ status: 'call_scheduled', calls_attempts: 1 });
  });

  it('settles a call from the provider\'s record when its events were lost (process restart)', async () => {
    const { id } = await startOne({ status: 'finished', duration: 30 });
    // The events are never delivered: the sim that placed the call forgets its delivery.
    h.sim.setDelivery(async () => { throw new Error('down'); });
    await h.advance(2 * MIN);
    await h.advance(MIN);
    expect((await h.callsOf(id))[0].status).toBe('in progress');
    await h.advance(h.t.deps.voice.capabilities.reconcileAfterMs);
    await h.round();
    expect((await h.callsOf(id))[0]).toMatchObject({ status: 'finished', call_duration: 30 });
    expect((await h.contact(id)).status).toBe('finished');
    connectProviderEvents(h.t.deps);
  });

  it('ends a call whose end event carries a status the service does not know as failed, with the status in its reason', async () => {
    const { id } = await startOne({ status: 'exploded', duration: 20 }, { max_call_attempts: 2, call_interval: [5] });
    await h.advance(2 * MIN);
    await h.round();
    const [row] = await h.callsOf(id);
    expect(row.status).toBe('failed');
    expect(row.call_data.ended_reason).toContain("unknown provider status 'exploded'");
    expect(await h.contact(id)).toMatchObject({ status: 'call_scheduled', calls_attempts: 1 });
  });

  it('ends a call as failed when the provider stays unreachable for three reconcile periods', async () => {
    const { id } = await startOne({ lost: true }, { max_call_attempts: 2, call_interval: [5] });
    const sim = h.sim as unknown as { fetchCall: unknown };
    const fetchCall = sim.fetchCall;
    sim.fetchCall = async () => {
      throw new Error('provider API 500');
    };
    try {
      const after = h.t.deps.voice.capabilities.reconcileAfterMs;
      await h.advance(2 * after);
      await h.round();
      expect((await h.callsOf(id))[0].status).toBe('in progress'); // still asking
      await h.advance(after + MIN);
      await h.round();
      const [row] = await h.callsOf(id);
      expect(row.status).toBe('failed');
      expect(row.call_data.ended_reason).toContain('could not be reached');
      expect(await h.contact(id)).toMatchObject({ status: 'call_scheduled', calls_attempts: 1 });
    } finally {
      sim.fetchCall = fetchCall;
    }
  });

  it('does not count the attempt when the provider refuses the call with a retryable error', async () => {
    const real = h.t.deps.voice;
    const refusing: VoiceProvider = { ...real, name: real.name, capabilities: real.capabilities, verifyWebhook: real.verifyWebhook.bind(real), parseWebhook: real.parseWebhook.bind(real), hangup: real.hangup.bind(real), startCall: async () => { throw new VoiceProviderError('rate_limited', 'slow down', true); } };
    const c = await h.campaign({ max_call_attempts: 1 });
    const [id] = await h.contacts(c, [usNumber()]);
    await h.enqueue(c);
    await h.round(undefined, { voice: refusing });
    // No call was placed, so none is kept; the contact is due again once the route's back-off ends.
    expect(await h.callsOf(id!)).toEqual([]);
    expect(await h.contact(id!)).toMatchObject({ status: 'call_scheduled', calls_attempts: 0 });
    expect((await h.contact(id!)).next_action_reason).toMatch(/refused the call for its limits/);
  });
});

const inbound = (payload: { from: string; to: string }, headers: Record<string, string> = h.account.headers) =>
  h.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', payload, headers });

describe('inbound calls', () => {
  it('needs the credentials of the account that owns the number', async () => {
    const number = '+12125550778';
    await h.campaign({ campaign_type: 'Inbound', campaign_phone: null, phones: [number], title: 'Private line' });
    expect((await inbound({ from: usNumber(), to: number }, {})).statusCode).toBe(401);
    const stranger = await createAccount(h.t);
    expect((await inbound({ from: usNumber(), to: number }, stranger.headers)).statusCode).toBe(404);
    expect(await h.t.deps.db.selectFrom('calls').select('id').where('to_number', '=', number).execute()).toEqual([]);
  });

  it('keeps a do_not_disturb caller do_not_disturb through and after the call', async () => {
    const number = '+12125550779';
    const c = await h.campaign({ campaign_type: 'Inbound', campaign_phone: null, phones: [number], title: 'Care line' });
    const caller = usNumber();
    const [id] = await h.contacts(c, [caller], { status: 'do_not_disturb' });
    const res = await inbound({ from: caller, to: number });
    expect(res.statusCode).toBe(200);
    expect(res.json().contact_id).toBe(id);
    expect((await h.contact(id!)).status).toBe('do_not_disturb');
    await h.advance(10 * MIN);
    expect((await h.callsOf(id!))[0].status).not.toBe('in progress');
    expect((await h.contact(id!)).status).toBe('do_not_disturb');
  });

  it('records an inbound call to an Inbound campaign\'s number and creates the caller as a contact', async () => {
    const number = '+12125550777';
    const c = await h.campaign({ campaign_type: 'Inbound', campaign_phone: null, phones: [number], title: 'Hotline' });
    const caller = usNumber();
    const res = await inbound({ from: caller, to: number });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ campaign_id: c, contact_created: true, status: 'in progress' });
    const busy = await inbound({ from: caller, to: number });
    expect(busy.statusCode).toBe(409);
    await h.advance(10 * MIN);
    const contact = await h.contact(body.contact_id);
    expect(contact).toMatchObject({ status: 'finished', phone_number: caller, creation_method: 'manual', calls_attempts: 0 });
    const [call] = await h.callsOf(body.contact_id);
    expect(call).toMatchObject({ call_type: 'inbound', from_number: caller, to_number: number, status: 'finished', campaign_title: 'Hotline' });
    expect(call.call_data.transcript.length).toBeGreaterThan(0);
    // a second call from the same person finds the same contact
    const again = await inbound({ from: caller, to: number });
    expect(again.json()).toMatchObject({ contact_id: body.contact_id, contact_created: false });
    await h.advance(10 * MIN);
  });

  it('answers 404 for a number no Inbound campaign owns, and when the provider is not the simulator', async () => {
    expect((await inbound({ from: usNumber(), to: '+12125550999' })).statusCode).toBe(404);
    // An app whose provider is a vendor, with an Inbound campaign on the number: still 404.
    const vendor = await dialerHarness('2030-01-07T15:00:00Z', {}, {
      voice: (sim) => Object.defineProperty(Object.create(sim), 'name', { value: 'vendor' }) as VoiceProvider,
    });
    try {
      await vendor.campaign({ campaign_type: 'Inbound', campaign_phone: null, phones: ['+12125550777'], title: 'Hotline' });
      const res = await vendor.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', payload: { from: usNumber(), to: '+12125550777' }, headers: vendor.account.headers });
      expect(res.statusCode).toBe(404);
    } finally {
      await vendor.close();
    }
  });
});
