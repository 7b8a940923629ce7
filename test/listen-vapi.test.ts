import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi, createSubUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { mulawRms, readAudio } from './helpers/listened-audio.ts';

/**
 * An operator listening to a Vapi call, over real sockets: the service reads the call's listen
 * URL from Vapi (GET /call/{id}: monitor.listenUrl), opens Vapi's listen socket itself and relays
 * its stereo 16 kHz PCM to the operator as mu-law 8 kHz; the vendor's URL never reaches the
 * browser. The socket closes when the operator goes, and the operator's stream ends with the call.
 */
const KEY = 'fake-vapi-key-listen';
const SECRET = 'vapi-server-secret-listen';
let fake: FakeVapi;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`,
      phoneNumbers: { 'pn-out': '+12125550100' }, ringMs: 20, talkMs: 8_000, timeScale: 60,
    })),
    'VAPI_BASE_URL',
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

async function liveCall(phone: string) {
  const a = await s.assistant({ name: 'Sales', provider: 'vapi', first_message: 'Hi {{contact.name}}.', system_prompt: 'You sell.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
  await s.contact(campaign.id, phone, 'Ann');
  expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
  const vapiCall = await waitFor(async () => fake.calls.find((c) => c.call.customer?.number === phone && c.call.status === 'in-progress'));
  const [row] = await waitFor(async () => {
    const rows = await s.callsOf(campaign.id);
    const ref = rows[0] && await s.t.deps.db.selectFrom('call_provider_refs').select('call_id').where('call_id', '=', rows[0].id).executeTakeFirst();
    return ref && rows[0]!.status === 'in progress' ? rows : null;
  });
  return { campaign, vapiCall: vapiCall!, callId: row!.id };
}

describe('an operator listening to a Vapi call', () => {
  it('hears both parties through Vapi\'s listen socket, relayed as mu-law; the socket closes when the operator goes; audited', async () => {
    const { campaign, vapiCall, callId } = await liveCall('+12125550401');
    expect(vapiCall.request.assistant).toMatchObject({ monitorPlan: { listenEnabled: true } });
    const controller = new AbortController();
    const res = await fetch(`${s.baseUrl}/api/v1/live/calls/${callId}/audio`, { headers: s.alice.headers, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/basic');
    const audio = readAudio(res);
    // A second of audio: 8,000 mu-law bytes, after the first frame of silence.
    await waitFor(async () => audio.bytes() >= 8160, 10_000, async () => `${audio.bytes()} bytes`);
    expect(fake.listens.opened.get(vapiCall.id)).toBe(1);
    // The customer's 440 Hz and the assistant's 880 Hz, mixed down: far from silence.
    expect(mulawRms(audio.all().subarray(160))).toBeGreaterThan(1500);
    controller.abort();
    await audio.done;
    await waitFor(async () => fake.listens.open.get(vapiCall.id) === 0, 5000);
    const audit = await s.t.deps.db.selectFrom('audit_events').select(['kind', 'subject_id', 'details']).where('kind', '=', 'call.listened').where('subject_id', '=', callId).execute();
    expect(audit).toEqual([expect.objectContaining({ details: expect.objectContaining({ campaign_id: campaign.id, provider: 'vapi' }) })]);
  });

  it('ends the operator\'s stream when the call ends at Vapi', async () => {
    const { callId } = await liveCall('+12125550402');
    const res = await fetch(`${s.baseUrl}/api/v1/live/calls/${callId}/audio`, { headers: s.alice.headers });
    expect(res.status).toBe(200);
    const audio = readAudio(res);
    await waitFor(async () => audio.bytes() >= 1600, 10_000);
    expect((await s.api('POST', `/api/v1/calls/${callId}/end`)).statusCode).toBe(200);
    // The vendor closes its socket; the stream ends once its queued audio is played.
    await Promise.race([audio.done, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end with the call')), 25_000))]);
  });

  it('refuses a sub-user without the campaign\'s grant (403) and opens nothing at Vapi', async () => {
    const { vapiCall, callId } = await liveCall('+12125550403');
    const stranger = await createSubUser(s.t, s.alice.id, []);
    const res = await fetch(`${s.baseUrl}/api/v1/live/calls/${callId}/audio`, { headers: stranger.headers });
    expect(res.status).toBe(403);
    expect(fake.listens.opened.get(vapiCall.id)).toBeUndefined();
  });

  it('answers 502 naming the cause when Vapi gave the call no listen URL, and audits no listening', async () => {
    const { vapiCall, callId } = await liveCall('+12125550404');
    delete vapiCall.call.monitor!.listenUrl;
    const res = await fetch(`${s.baseUrl}/api/v1/live/calls/${callId}/audio`, { headers: s.alice.headers });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toBe('The voice vendor (vapi) refused to let this call be heard: Vapi gave this call no listen URL (it was created without monitorPlan.listenEnabled)');
    const audit = await s.t.deps.db.selectFrom('audit_events').select('id').where('kind', '=', 'call.listened').where('subject_id', '=', callId).execute();
    expect(audit).toEqual([]);
  });
});
