import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../../test/fakes/webhook-receiver.ts';
import { startFakeVapi, type FakeVapi } from '../../../../test/fakes/vapi.ts';
import { systemClock } from '../../../shared/clock.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { signVapiBody } from './vapi-signature.ts';
import { VapiProvider } from './vapi-provider.ts';

const SECRET = 'a-server-secret';
const credentials = (over: Partial<VendorCredentials> = {}): VendorCredentials => ({
  connectionId: null, apiKey: 'fake-vapi-key', baseUrl: 'http://127.0.0.1:1', webhookSecret: SECRET, phoneNumberId: 'fake-number-1',
  agentId: null, fromNumber: null, maxConcurrent: 10, callsPerSecond: 5, ...over,
});
const at = (iso: string) => ({ now: () => new Date(iso) });
const body = JSON.stringify({ message: { type: 'status-update', status: 'ringing', call: { id: 'c1' } } });

let fake: FakeVapi | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await fake?.idle();
  await fake?.close();
  await receiver?.close();
  fake = null;
  receiver = null;
});

describe('Vapi server message authentication', () => {
  const provider = new VapiProvider({ credentials: credentials(), clock: at('2025-05-01T10:00:00Z') });

  it('accepts the secret in X-Vapi-Secret, and refuses another', () => {
    expect(provider.verifyWebhook({ rawBody: body, headers: { 'x-vapi-secret': SECRET } })).toBe(true);
    expect(provider.verifyWebhook({ rawBody: body, headers: { 'x-vapi-secret': 'a-server-secreT' } })).toBe(false);
    expect(provider.verifyWebhook({ rawBody: body, headers: {} })).toBe(false);
  });

  it('accepts an HMAC of `${x-timestamp}.${body}` within 5 minutes, in ms or seconds', () => {
    const headers = signVapiBody(SECRET, body, new Date('2025-05-01T09:56:00Z'));
    expect(provider.verifyWebhook({ rawBody: body, headers })).toBe(true);
    const seconds = String(Date.parse('2025-05-01T10:01:00Z') / 1000);
    const sig = createHmac('sha256', SECRET).update(`${seconds}.${body}`).digest('hex');
    expect(provider.verifyWebhook({ rawBody: body, headers: { 'x-timestamp': seconds, 'x-signature': sig } })).toBe(true);
  });

  it('refuses a forged signature, a changed body and a stale timestamp', () => {
    const good = signVapiBody(SECRET, body, new Date('2025-05-01T10:00:00Z'));
    expect(provider.verifyWebhook({ rawBody: body, headers: signVapiBody('another-secret', body, new Date('2025-05-01T10:00:00Z')) })).toBe(false);
    expect(provider.verifyWebhook({ rawBody: body.replace('ringing', 'in-progress'), headers: good })).toBe(false);
    expect(provider.verifyWebhook({ rawBody: body, headers: signVapiBody(SECRET, body, new Date('2025-05-01T09:54:59Z')) })).toBe(false);
    expect(provider.verifyWebhook({ rawBody: body, headers: { ...good, 'x-signature': 'zz' } })).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    const open = new VapiProvider({ credentials: credentials({ webhookSecret: null }), clock: systemClock });
    expect(open.verifyWebhook({ rawBody: body, headers: { 'x-vapi-secret': '' } })).toBe(false);
  });

  it('verifies what the fake Vapi signs with HMAC for the org server URL', async () => {
    receiver = await startReceiver();
    fake = await startFakeVapi({ serverUrl: receiver.url, webhookSecret: SECRET, signing: 'hmac', timeScale: 600 });
    const live = new VapiProvider({ credentials: credentials({ baseUrl: fake.url }), clock: systemClock });
    await live.startCall({ callId: 1, from: null, to: '+15551230001', campaignId: 1, prompt: 'p', contactData: {}, direction: 'outbound', eventsUrl: null });
    await fake.idle();
    expect(receiver.requests.length).toBeGreaterThanOrEqual(4);
    for (const r of receiver.requests) {
      expect(r.headers['x-vapi-secret']).toBeUndefined();
      expect(live.verifyWebhook({ rawBody: r.body, headers: r.headers })).toBe(true);
      expect(live.verifyWebhook({ rawBody: r.body, headers: { ...r.headers, 'x-signature': '0'.repeat(64) } })).toBe(false);
    }
  });
});
