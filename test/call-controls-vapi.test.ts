import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * An operator steering a call on Vapi, over real sockets: the service finds the call's control
 * URL (GET /call/{id}: monitor.controlUrl, there because every call asks for monitorPlan) and
 * posts Vapi's live-call messages to it; the fake then ends or forwards the call and posts its
 * end-of-call-report, which the call row reads with the operator's outcome.
 */
const KEY = 'fake-vapi-key-controls';
const SECRET = 'vapi-server-secret-controls';
let fake: FakeVapi;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`,
      phoneNumbers: { 'pn-out': '+12125550100' }, ringMs: 20, talkMs: 20_000, timeScale: 60,
    })),
    'VAPI_BASE_URL',
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

/** A campaign's call to `phone`, answered at Vapi and in progress here. */
async function liveCall(phone: string, outcome: 'interested' | 'lose_end' = 'interested') {
  const a = await s.assistant({ name: 'Sales', provider: 'vapi', first_message: 'Hi {{contact.name}}.', system_prompt: 'You sell.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
  fake.script(phone, outcome);
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

const controlsOf = (vapiCallId: string) => fake.controls.filter((c) => c.callId === vapiCallId).map((c) => c.message);

describe('an operator on a Vapi call', () => {
  it('asks Vapi for a control URL on every call, whispers a system message, then ends the call: HUMAN, ended by operator', async () => {
    const { campaign, vapiCall, callId } = await liveCall('+12125550301');
    expect(vapiCall.request.assistant).toMatchObject({ monitorPlan: { listenEnabled: true, controlEnabled: true } });

    const whispered = await s.api('POST', `/api/v1/calls/${callId}/whisper`, { message: 'Mention the free survey.' });
    expect(whispered.statusCode, whispered.body).toBe(200);
    expect(controlsOf(vapiCall.id)).toEqual([{ type: 'add-message', message: { role: 'system', content: 'Mention the free survey.' }, triggerResponseEnabled: false }]);

    const ended = await s.api('POST', `/api/v1/calls/${callId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(controlsOf(vapiCall.id).at(-1)).toEqual({ type: 'end-call' });
    const [row] = await s.settled(campaign.id, 1);
    // Vapi says manually-canceled (terminated): the operator's end of a conversation is a finished call.
    expect(row).toMatchObject({ status: 'finished', call_ended_by: 'HUMAN', call_ended_by_reason: 'ended by operator' });
    expect(row!.call_data).toMatchObject({ ended_reason: 'ended by operator', operator: { action: 'end', user_id: s.alice.id }, whispers: [{ message: 'Mention the free survey.' }] });
  });

  it('transfers the call to the operator\'s number through the control URL: transferred, by whom', async () => {
    const { campaign, vapiCall, callId } = await liveCall('+12125550302');
    const res = await s.api('POST', `/api/v1/calls/${callId}/transfer`, { phone_number: '+12125550399' });
    expect(res.statusCode, res.body).toBe(200);
    expect(controlsOf(vapiCall.id)).toEqual([{ type: 'transfer', destination: { type: 'number', number: '+12125550399' } }]);
    const [row] = await s.settled(campaign.id, 1);
    expect(row).toMatchObject({ status: 'finished', action_status: 'transferred', action_status_reason: 'transferred by operator to +12125550399' });
    expect(row!.call_data).toMatchObject({ operator: { action: 'transfer', phone_number: '+12125550399', user_id: s.alice.id } });
  });

  it('answers 409 with Vapi\'s words when Vapi says the call is over (its end was lost), and takes the act back', async () => {
    const { vapiCall, callId } = await liveCall('+12125550303', 'lose_end');
    // The caller hung up at Vapi and the report never came (the fake's lose_end, without waiting for its talk).
    Object.assign(vapiCall.call, { status: 'ended', endedReason: 'customer-ended-call' });
    const res = await s.api('POST', `/api/v1/calls/${callId}/end`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/Vapi says the call has ended/);
    const row = await s.t.deps.db.selectFrom('calls').selectAll().where('id', '=', callId).executeTakeFirstOrThrow();
    expect(row.status).toBe('in progress');
    expect((row.call_data as Record<string, unknown> | null)?.operator).toBeUndefined();
    expect(controlsOf(vapiCall.id)).toEqual([]);
  });

  it('answers 502 with the reason when Vapi gives the call no control URL, and takes the whisper and the end back', async () => {
    const { vapiCall, callId } = await liveCall('+12125550304');
    delete vapiCall.call.monitor;
    for (const [path, body] of [['whisper', { message: 'Be brief.' }], ['end', undefined]] as const) {
      const res = await s.api('POST', `/api/v1/calls/${callId}/${path}`, body);
      expect(res.statusCode, path).toBe(502);
      expect(res.json().detail).toBe('The voice vendor (vapi) refused: Vapi gave this call no control URL (it was created without monitorPlan.controlEnabled)');
    }
    const row = await s.t.deps.db.selectFrom('calls').selectAll().where('id', '=', callId).executeTakeFirstOrThrow();
    expect(row.status).toBe('in progress');
    expect(row.call_data).toMatchObject({ whispers: [] });
    expect((row.call_data as Record<string, unknown>).operator).toBeUndefined();
    const audit = await s.t.deps.db.selectFrom('audit_events').select('kind').where('subject_type', '=', 'call').where('subject_id', '=', callId).execute();
    expect(audit).toEqual([]);
  });
});
