import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';

/**
 * Recording consent on Vapi, over real sockets against the fake: the campaign's rule goes to Vapi
 * as the assistant's recording-consent plan (verbal with the consent question, stay-on-line with
 * the disclosure), and what Vapi reports (compliance.recordingConsent.grantedAt) is kept on the call.
 */
const KEY = 'fake-vapi-key-consent';
const SECRET = 'vapi-server-secret-consent';
let fake: FakeVapi;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`,
      phoneNumbers: { 'pn-out': '+12125550100' }, maxConcurrent: 5, ringMs: 20, talkMs: 80, timeScale: 60,
    })),
    'VAPI_BASE_URL',
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

type Recording = { rule: string; consent: boolean | null };

describe('recording consent on Vapi', () => {
  it('asks through Vapi\'s recording-consent plan and keeps the answer: a yes is recorded, a no is not', async () => {
    const assistant = await s.assistant({ name: 'Consent', provider: 'vapi', first_message: 'Hi {{contact.name}}.', system_prompt: 'Be brief.', max_duration_seconds: 300 });
    const consent = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Consent', assistant_id: assistant.id, max_call_attempts: 1 });
    const told = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Told', assistant_id: assistant.id, max_call_attempts: 1 });
    expect((await s.api('PUT', `/api/v1/campaigns/${consent.id}/recording`, { rule: 'after_consent', consent_prompt: 'May we record? Please say yes or no.' })).statusCode).toBe(200);
    expect((await s.api('PUT', `/api/v1/campaigns/${told.id}/recording`, { rule: 'after_disclosure' })).statusCode).toBe(200);
    fake.declineRecording('+12125550172');
    await s.contact(consent.id, '+12125550171', 'Yes');
    await s.contact(consent.id, '+12125550172', 'No');
    await s.contact(told.id, '+12125550173', 'Told');
    for (const c of [consent, told]) expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${c.id}`)).statusCode).toBe(200);
    const calls = [...await s.settled(consent.id, 2), ...await s.settled(told.id, 1)];
    const byNumber = new Map(calls.map((c) => [c.to_number, c]));
    const sent = (to: string) => fake.calls.find((c) => c.call.customer?.number === to)!.call;
    const planOf = (to: string) => sent(to).assistant?.compliancePlan?.recordingConsentPlan ?? sent(to).assistantOverrides?.compliancePlan?.recordingConsentPlan;

    expect(planOf('+12125550171')).toMatchObject({ type: 'verbal', message: 'May we record? Please say yes or no.' });
    expect(planOf('+12125550173')).toMatchObject({ type: 'stay-on-line', message: 'This call is recorded.' });
    const recording = (to: string) => (byNumber.get(to)!.call_data as { recording: Recording }).recording;
    expect(recording('+12125550171')).toMatchObject({ rule: 'after_consent', consent: true });
    expect(byNumber.get('+12125550171')!.record_url).toBeTruthy();
    expect(recording('+12125550172')).toMatchObject({ rule: 'after_consent', consent: false });
    expect(byNumber.get('+12125550172')!.record_url).toBeNull();
    // Staying on the line after the disclosure is the consent Vapi reports.
    expect(recording('+12125550173')).toMatchObject({ rule: 'after_disclosure', consent: true });
  });
});
