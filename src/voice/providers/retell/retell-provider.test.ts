import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sign as sdkSign, verify as sdkVerify } from 'retell-sdk';
import { VoiceProviderError, type CallAssistant } from '../../provider.ts';
import { RetellProvider } from './retell-provider.ts';
import { signRetell, verifyRetell } from './retell-signature.ts';
import { API_KEY, callRequest, credentials, retellScene, type RetellScene } from '../../../../test/helpers/retell-scene.ts';

const assistant: CallAssistant = {
  id: 3, name: 'Spring', providerAssistantId: 'agent_custom', firstMessage: 'Hello Ann!', systemPrompt: 'You sell spring offers.', voice: '11labs-Adrian',
  language: 'en-US', model: 'gpt-4.1', voicemail: { action: 'leave_message', message: 'Call us back.' }, maxDurationSec: 300, transferNumber: '+15555550999',
};

let scene: RetellScene;
beforeEach(async () => {
  scene = await retellScene();
});
afterEach(async () => {
  await scene.close();
});

async function until<T>(probe: () => T | undefined | false, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('RetellProvider.startCall', () => {
  it('sends the agent, the override, our ids in the metadata and the variables with Retell-safe names', async () => {
    const req = callRequest({ assistant, from: '+14155550100', eventsUrl: `${scene.receiver.url}/api/v1/voice/retell/events?connection=4` });
    const { providerCallId } = await scene.provider.startCall(req);
    expect(providerCallId).toMatch(/^call_/);
    const body = scene.fake.calls[0]!;
    expect(body).toMatchObject({
      from_number: '+14155550100', to_number: req.to, override_agent_id: 'agent_custom',
      metadata: { call_id: req.callId, campaign_id: 7 },
      retell_llm_dynamic_variables: { contact_name: 'Ann', campaign_title: 'Spring', system_prompt: 'You sell spring offers.', campaign_prompt: 'Sell the spring offer.', transfer_number: '+15555550999' },
      agent_override: {
        agent: { voice_id: '11labs-Adrian', language: 'en-US', max_call_duration_ms: 300_000, voicemail_option: { action: { type: 'static_text', text: 'Call us back.' } }, webhook_url: req.eventsUrl },
        retell_llm: { begin_message: 'Hello Ann!', model: 'gpt-4.1' },
      },
    });
    // The per-call webhook_url is where the fake posts this call's events.
    await until(() => scene.receiver.requests.some((r) => r.url.endsWith('?connection=4')));
  });

  it('falls back to the credentials\' agent and from number and sends no override without an assistant', async () => {
    await scene.provider.startCall(callRequest());
    expect(scene.fake.calls[0]).toMatchObject({ from_number: '+14155550100', override_agent_id: 'agent_default' });
    expect(scene.fake.calls[0]!.agent_override).toBeUndefined();
  });

  it('refuses without a from number or an agent, before asking Retell', async () => {
    const bare = new RetellProvider({ credentials: credentials(scene.fake.url, { fromNumber: null, agentId: null }), clock: { now: () => new Date() } });
    await expect(bare.startCall(callRequest())).rejects.toMatchObject({ code: 'rejected', retryable: false });
    await expect(bare.startCall(callRequest({ from: '+14155550100' }))).rejects.toMatchObject({ code: 'rejected', message: expect.stringContaining('agent') });
    expect(scene.fake.calls).toHaveLength(0);
  });

  it('maps a bad API key to unauthorized', async () => {
    const wrong = new RetellProvider({ credentials: credentials(scene.fake.url, { apiKey: 'nope' }), clock: { now: () => new Date() } });
    const error = await wrong.startCall(callRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VoiceProviderError);
    expect(error).toMatchObject({ code: 'unauthorized', retryable: false });
  });

  it('maps a concurrency refusal (429) to rate_limited, retryable, with no call placed', async () => {
    scene.fake.script('+15555550777', 'refuse');
    await expect(scene.provider.startCall(callRequest({ to: '+15555550777' }))).rejects.toMatchObject({ code: 'rate_limited', retryable: true });
    expect(scene.fake.refusals).toBe(1);
  });

  it('holds to the org cap: the call over it is refused as rate_limited', async () => {
    await scene.close();
    scene = await retellScene({ maxConcurrent: 1, talkMs: 500 });
    await scene.provider.startCall(callRequest());
    await expect(scene.provider.startCall(callRequest())).rejects.toMatchObject({ code: 'rate_limited' });
    expect(scene.fake.peakConcurrency).toBe(1);
  });

  it('maps an invalid destination number to invalid_number', async () => {
    await expect(scene.provider.startCall(callRequest({ to: '12345' }))).rejects.toMatchObject({ code: 'invalid_number', retryable: false });
  });
});

describe('RetellProvider.findCall and fetchCall', () => {
  it('finds the call already placed for our call id, and nothing for another', async () => {
    const req = callRequest();
    const { providerCallId } = await scene.provider.startCall(req);
    await scene.provider.startCall(callRequest());
    expect(await scene.provider.findCall(req.callId)).toBe(providerCallId);
    expect(await scene.provider.findCall(999_999)).toBeNull();
  });

  it('says in progress, then ended with the call_ended event, and null for an unknown call', async () => {
    await scene.close();
    // Long enough that the first fetch lands while it talks, on a loaded machine too (300 ms did not).
    scene = await retellScene({ talkMs: 3000 });
    const req = callRequest();
    const { providerCallId } = await scene.provider.startCall(req);
    expect(await scene.provider.fetchCall(providerCallId, req.callId)).toEqual({ state: 'in progress' });
    await scene.fake.idle();
    const fetched = await scene.provider.fetchCall(providerCallId, req.callId);
    expect(fetched).toMatchObject({ state: 'ended', event: { eventId: `call_ended:${providerCallId}`, callId: req.callId, status: 'finished', type: 'ended' } });
    expect(await scene.provider.fetchCall('call_unknown', 1)).toBeNull();
  });

  it('hangs up a call in progress (stop-call) and ignores one that already ended', async () => {
    await scene.close();
    scene = await retellScene({ talkMs: 2000 });
    const { providerCallId } = await scene.provider.startCall(callRequest());
    await until(() => scene.fake.call(providerCallId)?.call_status === 'ongoing');
    await scene.provider.hangup(providerCallId);
    expect(scene.fake.call(providerCallId)).toMatchObject({ call_status: 'ended', disconnection_reason: 'manual_stopped' });
    await scene.provider.hangup(providerCallId);
  });
});

describe('x-retell-signature', () => {
  const body = '{"event":"call_started","call":{}}';
  const now = new Date('2026-03-01T12:00:00Z');

  it('agrees with retell-sdk\'s own sign and verify', async () => {
    expect(await sdkVerify(body, API_KEY, signRetell(API_KEY, body, new Date()))).toBe(true);
    expect(verifyRetell(API_KEY, body, await sdkSign(body, API_KEY), new Date())).toBe(true);
  });

  it('accepts a good signature and refuses a forged, a tampered and a stale one', () => {
    const good = signRetell(API_KEY, body, now);
    const headers = (h: string) => ({ rawBody: body, headers: { 'x-retell-signature': h } });
    const at = (t: Date) => new RetellProvider({ credentials: credentials('http://127.0.0.1:9'), clock: { now: () => t } });
    expect(at(now).verifyWebhook(headers(good))).toBe(true);
    expect(at(now).verifyWebhook(headers(signRetell('forged-key', body, now)))).toBe(false);
    expect(at(now).verifyWebhook({ rawBody: `${body} `, headers: { 'x-retell-signature': good } })).toBe(false);
    expect(at(new Date(now.getTime() + 5 * 60_000 + 1)).verifyWebhook(headers(good))).toBe(false);
    expect(at(new Date(now.getTime() + 4 * 60_000)).verifyWebhook(headers(good))).toBe(true);
    expect(at(now).verifyWebhook({ rawBody: body, headers: {} })).toBe(false);
  });
});
