import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../../../test/fakes/webhook-receiver.ts';
import { startFakeVapi, type FakeVapi, type FakeVapiOptions } from '../../../../test/fakes/vapi.ts';
import { systemClock } from '../../../shared/clock.ts';
import type { CallAssistant, CallEvent, StartCallRequest } from '../../provider.ts';
import { VoiceProviderError } from '../../provider.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { VapiProvider } from './vapi-provider.ts';

let fake: FakeVapi | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await fake?.idle();
  await fake?.close();
  await receiver?.close();
  fake = null;
  receiver = null;
});

async function scene(options: FakeVapiOptions = {}) {
  receiver = await startReceiver();
  fake = await startFakeVapi({ serverUrl: `${receiver.url}/org-events`, timeScale: 600, ...options });
  const credentials: VendorCredentials = {
    connectionId: null, apiKey: fake.apiKey, baseUrl: fake.url, webhookSecret: fake.webhookSecret, phoneNumberId: 'fake-number-1',
    agentId: null, fromNumber: null, maxConcurrent: 10, callsPerSecond: 5,
  };
  const provider = new VapiProvider({ credentials, clock: systemClock });
  const events = (callId: string) => receiver!.requests.filter((r) => JSON.parse(r.body).message?.call?.id === callId);
  const parse = (r: ReceivedRequest): CallEvent[] => {
    const input = { rawBody: r.body, headers: r.headers };
    expect(provider.verifyWebhook(input)).toBe(true);
    return provider.parseWebhook(input);
  };
  return { fake, receiver, provider, credentials, events, parse };
}

const assistant = (over: Partial<CallAssistant> = {}): CallAssistant => ({
  id: 7, name: 'Sales', providerAssistantId: null, firstMessage: 'Hi Ann!', systemPrompt: 'Sell politely.', voice: '11labs:voice-1',
  language: 'en', model: 'gpt-4o', voicemail: { action: 'leave_message', message: 'Call us back.' }, maxDurationSec: 300, transferNumber: '+15557654321', ...over,
});
const request = (over: Partial<StartCallRequest> = {}): StartCallRequest => ({
  callId: 101, from: null, to: '+15551230001', campaignId: 5, prompt: 'Campaign prompt', contactData: {}, direction: 'outbound',
  assistant: assistant(), variables: { 'contact.name': 'Ann' }, eventsUrl: `${receiver!.url}/events?connection=3`, ...over,
});

describe('VapiProvider against the fake Vapi', () => {
  it('starts a call with an inline assistant carrying our call id, variables and events URL', async () => {
    const { fake, provider, credentials } = await scene();
    const { providerCallId } = await provider.startCall(request());
    const body = fake.calls.find((c) => c.id === providerCallId)!.request as Record<string, any>;
    expect(body).toMatchObject({ phoneNumberId: 'fake-number-1', customer: { number: '+15551230001' } });
    expect(body.assistantId).toBeUndefined();
    expect(body.assistant).toMatchObject({
      firstMessage: 'Hi Ann!', voicemailMessage: 'Call us back.', maxDurationSeconds: 300,
      model: { provider: 'openai', model: 'gpt-4o', messages: [{ role: 'system', content: 'Sell politely.' }], tools: [{ type: 'transferCall', destinations: [{ type: 'number', number: '+15557654321' }] }] },
      voice: { provider: '11labs', voiceId: 'voice-1' }, transcriber: { language: 'en' },
      metadata: { call_id: 101, campaign_id: 5 },
      server: { url: `${receiver!.url}/events?connection=3`, headers: { 'x-vapi-secret': credentials.webhookSecret } },
    });
    expect(body.assistantOverrides).toEqual({ variableValues: { 'contact.name': 'Ann' } });
  });

  it('starts a call on a Vapi assistant by id with overrides, from the campaign number\'s own phoneNumberId', async () => {
    const { fake, provider } = await scene({ phoneNumbers: { 'fake-number-1': '+15550000001', 'num-2': '+15550000002' } });
    const { providerCallId } = await provider.startCall(request({ assistant: assistant({ providerAssistantId: 'asst-9' }), fromProviderNumberId: 'num-2' }));
    const body = fake.calls.find((c) => c.id === providerCallId)!.request as Record<string, any>;
    expect(body).toMatchObject({ phoneNumberId: 'num-2', assistantId: 'asst-9' });
    expect(body.assistant).toBeUndefined();
    expect(body.assistantOverrides).toMatchObject({
      firstMessage: 'Hi Ann!', variableValues: { 'contact.name': 'Ann' }, metadata: { call_id: 101, campaign_id: 5 }, server: { url: `${receiver!.url}/events?connection=3` },
    });
  });

  it('uses the campaign prompt when there is no assistant, and refuses without any phoneNumberId', async () => {
    const { fake, provider, credentials } = await scene();
    const { providerCallId } = await provider.startCall(request({ assistant: null }));
    expect((fake.calls.find((c) => c.id === providerCallId)!.request as any).assistant.model.messages[0].content).toBe('Campaign prompt');
    const bare = new VapiProvider({ credentials: { ...credentials, phoneNumberId: null }, clock: systemClock });
    await expect(bare.startCall(request({ callId: 102 }))).rejects.toMatchObject({ code: 'rejected', retryable: false });
  });

  it('maps Vapi\'s refusals: bad key, concurrency, invalid number, and a 5xx to an unknown outcome', async () => {
    const { fake, provider, credentials } = await scene({ maxConcurrent: 1 });
    const badKey = new VapiProvider({ credentials: { ...credentials, apiKey: 'wrong-key' }, clock: systemClock });
    await expect(badKey.startCall(request())).rejects.toMatchObject({ code: 'unauthorized', retryable: false });
    await expect(provider.startCall(request({ to: '5551230001' }))).rejects.toMatchObject({ code: 'invalid_number', retryable: false });
    fake.script('+15551230009', 'refuse');
    const refused = await provider.startCall(request({ to: '+15551230009' })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VoiceProviderError);
    expect(refused).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 1000 });
    await provider.startCall(request());
    await expect(provider.startCall(request({ callId: 103 }))).rejects.toMatchObject({ code: 'rate_limited' });
    expect(fake.refusals).toBe(2);
    expect(fake.peakConcurrency).toBe(1);
    const down = new VapiProvider({ credentials: { ...credentials, baseUrl: 'http://127.0.0.1:1' }, clock: systemClock });
    const err = await down.startCall(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(VoiceProviderError);
  });

  it('finds a call already placed for our call id, and none for another', async () => {
    const { provider } = await scene();
    const { providerCallId } = await provider.startCall(request({ callId: 555 }));
    await provider.startCall(request({ callId: 556, to: '+15551230002' }));
    expect(await provider.findCall(555)).toBe(providerCallId);
    expect(await provider.findCall(999)).toBeNull();
  });

  it('reads an interested call\'s events: ringing, answered, the end with duration, cost, transcript, recording and analysis', async () => {
    const { fake, provider, events, parse } = await scene();
    const { providerCallId } = await provider.startCall(request());
    await fake.idle();
    const all = events(providerCallId).flatMap(parse);
    // Each final transcript turn comes while the call runs (the live stream), then the end tells them all.
    const turns = all.filter((e) => e.type === 'turn');
    expect(all.map((e) => e.type)).toEqual(['ringing', 'answered', ...turns.map(() => 'turn'), 'ended']);
    const end = all.at(-1)!;
    expect(turns.map((e) => e.turn)).toEqual(end.transcript);
    expect(end).toMatchObject({ callId: 101, providerCallId, status: 'finished', endedReason: 'customer-ended-call', endedBy: 'HUMAN', analysis: { structuredData: { interested: true } } });
    expect(end.durationSec).toBeGreaterThan(0);
    expect(end.cost).toBeGreaterThan(0);
    expect(end.recordUrl).toContain(providerCallId);
    expect(end.transcript).toEqual([
      { role: 'assistant', text: 'Hi Ann!' }, { role: 'user', text: 'Yes, that sounds interesting.' },
      { role: 'assistant', text: 'Great! Shall someone call you back tomorrow?' }, { role: 'user', text: 'Yes please. Bye!' },
    ]);
    expect(fake.deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it.each([
    ['not_interested', 'finished', 'assistant-ended-call'], ['voicemail', 'voicemail', 'voicemail'],
    ['busy', 'busy_or_rejected', 'customer-busy'], ['no_answer', 'unavailable', 'customer-did-not-answer'],
  ] as const)('reads a %s call as %s', async (outcome, status, endedReason) => {
    const { fake, provider, events, parse } = await scene();
    fake.script('+15551230001', outcome);
    const { providerCallId } = await provider.startCall(request());
    await fake.idle();
    const end = events(providerCallId).flatMap(parse).find((e) => e.type === 'ended');
    expect(end).toMatchObject({ status, endedReason });
  });

  it('gives a duplicated message the same event id, and reads an out-of-order end', async () => {
    const { fake, provider, events, parse } = await scene();
    fake.script('+15551230001', 'duplicate');
    fake.script('+15551230002', 'out_of_order');
    const dup = await provider.startCall(request());
    const ooo = await provider.startCall(request({ callId: 102, to: '+15551230002' }));
    await fake.idle();
    const ids = events(dup.providerCallId).flatMap(parse).filter((e) => e.type !== 'turn').map((e) => e.eventId);
    expect(ids.length).toBe(6);
    expect(new Set(ids).size).toBe(3);
    expect(events(ooo.providerCallId).flatMap(parse).filter((e) => e.type !== 'turn').map((e) => e.type)).toEqual(['ringing', 'ended', 'answered']);
  });

  it('reconciles a call whose end never came through GET /call/{id}; in progress while it runs; 404 unknown', async () => {
    const { fake, provider, events, parse } = await scene({ talkMs: 300 });
    fake.script('+15551230001', 'lose_end');
    const { providerCallId } = await provider.startCall(request());
    await new Promise((r) => setTimeout(r, 100));
    expect(await provider.fetchCall(providerCallId, 101)).toEqual({ state: 'in progress' });
    await fake.idle();
    expect(events(providerCallId).flatMap(parse).some((e) => e.type === 'ended')).toBe(false);
    const fetched = await provider.fetchCall(providerCallId, 101);
    expect(fetched).toMatchObject({ state: 'ended', event: { type: 'ended', eventId: `vapi:${providerCallId}:end`, callId: 101, status: 'finished', endedReason: 'customer-ended-call' } });
    expect(await provider.fetchCall('no-such-call', 101)).toBeNull();
  });

  it('hangs up a live call through its control URL', async () => {
    const { fake, provider, events, parse } = await scene({ talkMs: 5_000 });
    const { providerCallId } = await provider.startCall(request());
    await new Promise((r) => setTimeout(r, 100));
    await provider.hangup(providerCallId);
    await fake.idle();
    expect(events(providerCallId).flatMap(parse).find((e) => e.type === 'ended')).toMatchObject({ status: 'terminated', endedReason: 'manually-canceled' });
  });

  it('answers an inbound assistant-request with the assistant and our call id, and the call runs with it', async () => {
    const { fake, receiver, provider, events, parse } = await scene();
    const asked: unknown[] = [];
    receiver.respond = (r) => {
      const input = { rawBody: r.body, headers: r.headers };
      const inbound = provider.verifyWebhook(input) ? provider.parseInbound(input) : null;
      if (!inbound) return { status: 200 };
      asked.push(inbound);
      const answer = provider.answerInbound(inbound, inbound.from === '+15559990000' ? request({ callId: 300, direction: 'inbound', to: inbound.from, eventsUrl: null }) : null);
      return { status: answer.statusCode, body: JSON.stringify(answer.body) };
    };
    const { call } = await fake.ring({ from: '+15559990000', toPhoneNumberId: 'fake-number-1' });
    await fake.idle();
    expect(asked).toEqual([{ providerCallId: call.id, from: '+15559990000', to: '+15550000001', toProviderNumberId: 'fake-number-1' }]);
    const all = events(call.id).filter((r) => JSON.parse(r.body).message.type !== 'assistant-request').flatMap(parse);
    expect(all.map((e) => [e.type, e.callId])).toEqual([['answered', 300], ['ended', 300]]);
    const refused = await fake.ring({ from: '+15550000000', toPhoneNumberId: 'fake-number-1' });
    expect(refused.answer).toEqual({ error: expect.any(String) });
    expect(refused.call).toMatchObject({ status: 'ended', endedReason: 'assistant-request-returned-error' });
  });
});
