import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, type FakeTwilio } from './fakes/twilio.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { SCRIPTED_QUESTION } from '../src/modules/agent/scripted-brain.ts';

/**
 * Twilio without a language model (LLM_BASE_URL unset): the scripted demo agent greets, asks its
 * one yes/no question and ends the call; Twilio's own limit (429, code 20429) gives the attempt
 * back, so every contact is still called once. The service has no Twilio account of its own here:
 * the calls go through the account's voice connection (its SID and token sign every request).
 */
const SID = `AC${'b2'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-0002';
const WAIT = { silenceMs: 60_000 };
let fake: FakeTwilio;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { TWILIO_CALLS_PER_SECOND: '0', TWILIO_MAX_CONCURRENT_CALLS: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9' },
    async () => (fake = await startFakeTwilio({
      accountSid: SID, authToken: TOKEN, timeScale: 20, ringMs: 100, replyTimeoutMs: 3000, maxConcurrent: 1,
      callees: (to) => ({ answer: 'human', steps: [{ say: 'Hello?' }, { say: to.endsWith('1') ? 'Yes, sure.' : 'No, thank you.' }, WAIT] }),
    })),
    'TWILIO_BASE_URL',
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('Twilio with the scripted demo agent', () => {
  it('asks its yes/no question, records the answer, ends the call; a 20429 refusal spends no attempt', async () => {
    const connection = await s.api('POST', '/api/v1/voice-connections/', { name: 'Client Twilio', provider: 'twilio', api_key: TOKEN, account_sid: SID, from_number: '+14155550100', max_concurrent_calls: 0, calls_per_second: 100 });
    expect(connection.statusCode, connection.body).toBe(200);
    const connectionId = connection.json().id as number;
    const a = await s.assistant({ name: 'Demo', provider: 'twilio', voice_connection_id: connectionId, first_message: 'Hello {{contact.name}}, this is {{campaign.title}}.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Demo line', assistant_id: a.id, max_call_attempts: 1 });
    // Recorded from the start (Californian numbers: `auto` would disclose first, test/recording-consent.test.ts).
    expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/recording`, { rule: 'always' })).statusCode).toBe(200);
    const yes = await s.contact(campaign.id, '+14155550201', 'Ann');
    const no = await s.contact(campaign.id, '+14155550202', 'Bo');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const calls = await s.settled(campaign.id, 2, 40_000);
    // Twilio takes one call at a time here: the second start was refused at least once and retried.
    expect(fake.refusals).toBeGreaterThan(0);
    for (const id of [yes, no]) expect(await s.contactRow(id)).toMatchObject({ calls_attempts: 1 });
    const byNumber = Object.fromEntries(calls.map((c) => [c.to_number, c]));
    expect(byNumber['+14155550201']).toMatchObject({ status: 'finished', action_status: 'interested', call_ended_by: 'AI' });
    expect(byNumber['+14155550202']).toMatchObject({ status: 'finished', action_status: null, call_ended_by: 'AI' });
    const transcript = (byNumber['+14155550201']!.call_data as { transcript: { role: string; text: string }[] }).transcript;
    expect(transcript).toEqual([
      { role: 'assistant', text: 'Hello Ann, this is Demo line.' },
      { role: 'user', text: 'Hello?' },
      { role: 'assistant', text: SCRIPTED_QUESTION },
      { role: 'user', text: 'Yes, sure.' },
      { role: 'assistant', text: 'Thank you, we will be in touch. Goodbye.' },
    ]);
    const placed = fake.calls.find((c) => c.params.To === '+14155550201')!;
    expect(placed.relay!.heard).toContain(SCRIPTED_QUESTION);
    expect(placed.params).toMatchObject({ From: '+14155550100', Url: `${s.baseUrl}/api/v1/voice/twilio/twiml?call=${byNumber['+14155550201']!.id}&connection=${connectionId}` });
  });
});
