import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, DEFAULT_CALLEE, type FakeCallee, type FakeTwilio } from './fakes/twilio.ts';
import { startFakeStreamingLlm, type FakeStreamingLlm } from './fakes/llm-stream.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * An operator steering a call our own agent holds on Twilio, over real sockets: a whisper is
 * stored and our agent reads it before its next turn (the model sees it as a system message);
 * End updates the call with Status=completed, Transfer with TwiML <Dial>; the call row says who.
 */
const SID = `AC${'c3'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-controls';
const FROM = '+14155550100';
const GUIDANCE = 'Offer the spring discount.';
const phones = { whisper: '+14155550201', transfer: '+14155550202' } as const;
const callees: Record<string, FakeCallee> = {
  // A pause after the first answer leaves the operator time to whisper before the caller speaks again.
  [phones.whisper]: { answer: 'human', steps: [{ say: 'Hello, who is this?' }, { silenceMs: 40_000 }, { say: 'What does it cost?' }, { silenceMs: 600_000 }] },
  [phones.transfer]: { answer: 'human', steps: [{ say: 'Hello?' }, { silenceMs: 600_000 }] },
};

let fake: FakeTwilio;
let llm: FakeStreamingLlm;
let s: VendorScene;

beforeAll(async () => {
  llm = await startFakeStreamingLlm(() => ({ tokens: ['We', ' sell', ' heat', ' pumps.'] }));
  s = await vendorScene(
    { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM, TWILIO_CALLS_PER_SECOND: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9', LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model' },
    async () => (fake = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, callees: (to) => callees[to] ?? DEFAULT_CALLEE, timeScale: 20, ringMs: 100, replyTimeoutMs: 3000 })),
    'TWILIO_BASE_URL',
  );
}, 60_000);
afterAll(async () => {
  // Every call over and its last callbacks answered: a callback in flight while the app closes would hold the close.
  await fake?.idle();
  await s?.close();
  await fake?.close();
  await llm?.close();
});

/** A campaign's call to `phone`, in our agent's hands (the relay session open). */
async function liveCall(phone: string, name: string) {
  const a = await s.assistant({ name: 'Agent', provider: 'twilio', first_message: 'Hi {{contact.name}}.', system_prompt: 'You call {{contact.name}}.' });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 1 });
  await s.contact(campaign.id, phone, name);
  expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
  const twilioCall = await waitFor(async () => fake.calls.find((c) => c.params.To === phone && c.relay?.setup), 15_000);
  const [row] = await s.callsOf(campaign.id);
  expect(row!.status).toBe('in progress');
  return { campaign, twilioCall: twilioCall!, callId: row!.id };
}

/** The model's requests for the call of the contact named `name` (its system prompt names them). */
const asked = (name: string) => llm.seen.filter((r) => r.body.stream && JSON.stringify(r.body.messages[0]).includes(name));

describe('an operator on a call our agent holds on Twilio', () => {
  it('whispers guidance the agent gives the model at its next turn, then ends the call with Status=completed', async () => {
    const { campaign, twilioCall, callId } = await liveCall(phones.whisper, 'Wanda');
    await waitFor(async () => asked('Wanda').length >= 1 || null);
    expect(asked('Wanda')[0]!.body.messages.filter((m) => m.role === 'system')).toHaveLength(1);

    const whispered = await s.api('POST', `/api/v1/calls/${callId}/whisper`, { message: GUIDANCE });
    expect(whispered.statusCode, whispered.body).toBe(200);
    // Nothing is asked of Twilio: the agent reads the database.
    expect(twilioCall.updates).toEqual([]);
    const next = await waitFor(async () => asked('Wanda').find((r) => JSON.stringify(r.body.messages).includes('What does it cost?')), 15_000);
    expect(next!.body.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'You call Wanda.' },
      { role: 'system', content: `Guidance from a supervisor (the caller does not hear it): ${GUIDANCE}` },
    ]);

    const ended = await s.api('POST', `/api/v1/calls/${callId}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(twilioCall.updates).toEqual([{ Status: 'completed' }]);
    const [row] = await s.settled(campaign.id, 1);
    expect(row).toMatchObject({ status: 'finished', call_ended_by: 'HUMAN', call_ended_by_reason: 'ended by operator' });
    expect(row!.call_data).toMatchObject({ ended_reason: 'ended by operator', operator: { action: 'end', user_id: s.alice.id }, whispers: [{ message: GUIDANCE, user_id: s.alice.id }] });
  }, 60_000);

  it('transfers the call with TwiML <Dial>: Twilio dials the operator\'s number, the call is transferred', async () => {
    const { campaign, twilioCall, callId } = await liveCall(phones.transfer, 'Theo');
    const res = await s.api('POST', `/api/v1/calls/${callId}/transfer`, { phone_number: '+14155550188' });
    expect(res.statusCode, res.body).toBe(200);
    expect(twilioCall.updates).toEqual([{ Twiml: '<?xml version="1.0" encoding="UTF-8"?><Response><Dial>+14155550188</Dial></Response>' }]);
    const [row] = await s.settled(campaign.id, 1);
    expect(twilioCall.transferTo).toBe('+14155550188');
    expect(row).toMatchObject({ status: 'finished', action_status: 'transferred', action_status_reason: 'transferred by operator to +14155550188' });
    expect(row!.call_data).toMatchObject({ operator: { action: 'transfer', phone_number: '+14155550188', user_id: s.alice.id } });
    // Over: a second act is a 409 that says why.
    const again = await s.api('POST', `/api/v1/calls/${callId}/end`);
    expect(again.statusCode).toBe(409);
  }, 60_000);
});
