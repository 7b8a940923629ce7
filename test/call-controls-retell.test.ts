import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRetell, type FakeRetell } from './fakes/retell.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * An operator steering a call on Retell, over real sockets: stop-call ends it, update-live-call
 * gives the agent context; Retell has no API that transfers a live call to a number, so a
 * transfer is a 409 that says so and changes nothing.
 */
const KEY = 'key_fake_retell_controls';
const AGENT = 'agent_sales';
const OUR_NUMBER = '+12125550100';
let fake: FakeRetell;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { RETELL_API_KEY: KEY, RETELL_BASE_URL: 'http://127.0.0.1:9', RETELL_AGENT_ID: AGENT, RETELL_FROM_NUMBER: OUR_NUMBER, RETELL_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeRetell({
      apiKey: KEY, webhookUrl: `${serviceUrl}/api/v1/voice/retell/events`, fromNumbers: [OUR_NUMBER], agents: { [AGENT]: {} },
      ringMs: 20, talkMs: 30_000, analyzeMs: 20,
    })),
    'RETELL_BASE_URL',
  );
});
afterAll(async () => {
  // Every call over and its last callbacks answered: a callback in flight while the app closes would hold the close.
  await fake?.idle();
  await s?.close();
  await fake?.close();
});

async function liveCall(phone: string) {
  const a = await s.assistant({ name: 'Sales', provider: 'retell', provider_assistant_id: AGENT, first_message: 'Hi.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
  await s.contact(campaign.id, phone, 'Ann');
  expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
  const [row] = await waitFor(async () => {
    const rows = await s.callsOf(campaign.id);
    const ref = rows[0] && await s.t.deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', rows[0].id).executeTakeFirst();
    return ref && fake.call(ref.provider_call_id)?.call_status === 'ongoing' ? rows : null;
  });
  const ref = await s.t.deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', row!.id).executeTakeFirstOrThrow();
  return { campaign, callId: row!.id, retellId: ref.provider_call_id };
}

describe('an operator on a Retell call', () => {
  it('whispers through update-live-call and ends through stop-call: HUMAN, ended by operator', async () => {
    const { campaign, callId, retellId } = await liveCall('+12125550401');
    const whispered = await s.api('POST', `/api/v1/calls/${callId}/whisper`, { message: 'They own a dog: mention the pet plan.' });
    expect(whispered.statusCode, whispered.body).toBe(200);
    expect(fake.liveUpdates).toEqual([{ callId: retellId, body: { call_control: { additional_context: 'They own a dog: mention the pet plan.' } } }]);

    const ended = await s.api('POST', `/api/v1/calls/${callId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(fake.call(retellId)).toMatchObject({ call_status: 'ended', disconnection_reason: 'manual_stopped' });
    const [row] = await s.settled(campaign.id, 1);
    expect(row).toMatchObject({ status: 'finished', call_ended_by: 'HUMAN', call_ended_by_reason: 'ended by operator' });
    expect(row!.call_data).toMatchObject({ operator: { action: 'end', user_id: s.alice.id } });
  });

  it('refuses a transfer with 409 saying Retell cannot, and changes nothing', async () => {
    const { callId, retellId } = await liveCall('+12125550402');
    const res = await s.api('POST', `/api/v1/calls/${callId}/transfer`, { phone_number: '+12125550499' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('The voice vendor (retell) cannot transfer a call in progress through its API');
    const row = await s.t.deps.db.selectFrom('calls').selectAll().where('id', '=', callId).executeTakeFirstOrThrow();
    expect(row.status).toBe('in progress');
    expect((row.call_data as Record<string, unknown> | null)?.operator).toBeUndefined();
    expect(fake.call(retellId)!.call_status).toBe('ongoing');
    await s.api('POST', `/api/v1/calls/${callId}/end`);
  });
});
