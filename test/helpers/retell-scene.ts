import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { startFakeRetell, type FakeRetell, type FakeRetellOptions } from '../fakes/retell.ts';
import type { CallEvent, StartCallRequest } from '../../src/voice/provider.ts';
import type { VendorCredentials } from '../../src/voice/vendor-credentials.ts';
import { RetellProvider } from '../../src/voice/providers/retell/retell-provider.ts';

/** A fake Retell, a receiver standing in for the service's events route, and a provider pointed at the fake. */
export interface RetellScene { fake: FakeRetell; receiver: Receiver; provider: RetellProvider; events(): CallEvent[]; close(): Promise<void> }

export const API_KEY = 'key_test_retell';
export const AGENT = 'agent_default';
export const FROM = '+14155550100';

export function credentials(baseUrl: string, over: Partial<VendorCredentials> = {}): VendorCredentials {
  return { connectionId: null, apiKey: API_KEY, baseUrl, webhookSecret: null, phoneNumberId: null, agentId: AGENT, fromNumber: FROM, maxConcurrent: 20, callsPerSecond: 5, ...over };
}

export async function retellScene(options: Partial<FakeRetellOptions> = {}): Promise<RetellScene> {
  const receiver = await startReceiver();
  const fake = await startFakeRetell({ apiKey: API_KEY, webhookUrl: `${receiver.url}/api/v1/voice/retell/events`, fromNumbers: [FROM], agents: { [AGENT]: {}, agent_custom: {} }, ringMs: 10, talkMs: 30, analyzeMs: 10, ...options });
  const provider = new RetellProvider({ credentials: credentials(fake.url), clock: { now: () => new Date() } });
  const events = () => receiver.requests
    .filter((r) => provider.verifyWebhook({ rawBody: r.body, headers: r.headers }))
    .flatMap((r) => provider.parseWebhook({ rawBody: r.body, headers: r.headers }));
  return { fake, receiver, provider, events, close: async () => { await fake.close(); await receiver.close(); } };
}

let nextCallId = 1000;
export function callRequest(over: Partial<StartCallRequest> = {}): StartCallRequest {
  return {
    callId: nextCallId++, from: null, to: '+15555550123', campaignId: 7, prompt: 'Sell the spring offer.', contactData: { name: 'Ann' }, direction: 'outbound',
    assistant: null, variables: { 'contact.name': 'Ann', 'campaign.title': 'Spring' }, eventsUrl: null, ...over,
  };
}
