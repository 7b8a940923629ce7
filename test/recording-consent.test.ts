import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio, DEFAULT_CALLEE, type FakeCallee, type FakeTwilio } from './fakes/twilio.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi, createSubUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * Recording consent on our own agent, over real sockets against the fake Twilio: a campaign that
 * records only after consent (a person who says yes, one who presses 2), and one under `auto`
 * (a Californian number is told first, a New York number is recorded from the start). What Twilio
 * was asked (Record on the call, or the Recordings API at the disclosure or the consent), what the
 * person heard first, and what each call keeps (call_data.recording, record_url).
 */
const SID = `AC${'c3'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-consent';
const FROM = '+14155550100';
const YES = '+14155550121';
const NO = '+14155550122';
const CALIFORNIA = '+14155550123';
const NEW_YORK = '+12125550124';
// A person stays on the line a while after answering (simulated seconds): the recording is
// started then, and a loaded machine must not see the call end before Twilio was asked.
const LISTEN = { silenceMs: 40_000 };
const callees: Record<string, FakeCallee> = {
  [YES]: { answer: 'human', steps: [{ say: 'Yes, go ahead.' }, LISTEN, { say: 'Tell me more.' }, { hangup: true }] },
  [NO]: { answer: 'human', steps: [{ dtmf: '2' }, LISTEN, { say: 'Tell me more.' }, { hangup: true }] },
  [CALIFORNIA]: { answer: 'human', steps: [LISTEN, { say: 'Tell me more.' }, { hangup: true }] },
  [NEW_YORK]: { answer: 'human', steps: [{ say: 'Tell me more.' }, { hangup: true }] },
};

let fake: FakeTwilio;
let s: VendorScene;

beforeAll(async () => {
  s = await vendorScene(
    { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM, TWILIO_CALLS_PER_SECOND: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9' },
    async () => (fake = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, callees: (to) => callees[to] ?? DEFAULT_CALLEE, timeScale: 20, ringMs: 50, replyTimeoutMs: 2000 })),
    'TWILIO_BASE_URL',
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

type Recording = { rule: string; chosen_by: string; jurisdiction: string | null; consent: boolean | null };

async function campaignWith(title: string, rule: Record<string, unknown> | null) {
  const a = await s.assistant({ name: title, provider: 'twilio', first_message: 'Hi {{contact.name}}, this is Acme.', max_duration_seconds: 120 });
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title, assistant_id: a.id, max_call_attempts: 1 });
  if (rule) {
    const res = await s.api('PUT', `/api/v1/campaigns/${campaign.id}/recording`, rule);
    expect(res.statusCode, res.body).toBe(200);
  }
  return campaign;
}

describe('recording consent on our agent on Twilio', () => {
  it('records after a yes, not after a 2; under auto tells a Californian first and records a New Yorker from the start', async () => {
    const consent = await campaignWith('Consent', { rule: 'after_consent', consent_prompt: 'May we record this call? Say yes or press 1.' });
    const auto = await campaignWith('Auto', null);
    await s.contact(consent.id, YES, 'Yan');
    await s.contact(consent.id, NO, 'Noa');
    await s.contact(auto.id, CALIFORNIA, 'Cal');
    await s.contact(auto.id, NEW_YORK, 'Nye');
    for (const c of [consent, auto]) expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${c.id}`)).statusCode).toBe(200);
    const settled = [...await s.settled(consent.id, 2, 40_000), ...await s.settled(auto.id, 2, 40_000)];
    // The recordings' callbacks follow the calls' ends.
    const calls = await waitFor(async () => {
      const rows = [...await s.callsOf(consent.id), ...await s.callsOf(auto.id)];
      return rows.filter((r) => r.record_url).length === 3 ? rows : null;
    }, 20_000).catch(() => settled);
    const byNumber = new Map(calls.map((c) => [c.to_number, c]));
    const twilioCall = (to: string) => fake.calls.find((c) => c.params.To === to)!;
    const recording = (to: string) => (byNumber.get(to)!.call_data as { recording: Recording }).recording;

    // Consent given: no Record on the call; the Recordings API once the person said yes, its callback ours.
    expect(twilioCall(YES).params.Record).toBeUndefined();
    expect(twilioCall(YES).apiRecording?.params).toMatchObject({ RecordingStatusCallbackMethod: 'POST', RecordingStatusCallbackEvent: 'completed' });
    expect(twilioCall(YES).apiRecording!.params.RecordingStatusCallback).toMatch(new RegExp(`/api/v1/voice/twilio/events\\?.*call=${byNumber.get(YES)!.id}`));
    expect(twilioCall(YES).relay!.heard[0]).toBe('May we record this call? Say yes or press 1.');
    expect(twilioCall(YES).relay!.heard[1]).toBe('Thank you. Hi Yan, this is Acme.');
    expect(recording(YES)).toMatchObject({ rule: 'after_consent', chosen_by: 'campaign', jurisdiction: 'US-CA', consent: true });
    expect(byNumber.get(YES)!.record_url).toMatch(/\/Recordings\/RE/);

    // Consent refused (2 pressed): never recorded, and the call went on.
    expect(twilioCall(NO).params.Record).toBeUndefined();
    expect(twilioCall(NO).apiRecording).toBeUndefined();
    expect(twilioCall(NO).relay!.heard[1]).toBe('Understood: this call is not recorded. Hi Noa, this is Acme.');
    expect(twilioCall(NO).relay!.prompts).toContain('Tell me more.');
    expect(recording(NO)).toMatchObject({ rule: 'after_consent', consent: false });
    expect(byNumber.get(NO)!.record_url).toBeNull();

    // auto: California needs every party's consent: told first, recorded from then.
    expect(twilioCall(CALIFORNIA).params.Record).toBeUndefined();
    expect(twilioCall(CALIFORNIA).relay!.heard[0]).toBe('This call is recorded. Hi Cal, this is Acme.');
    expect(twilioCall(CALIFORNIA).apiRecording).toBeTruthy();
    expect(recording(CALIFORNIA)).toEqual({ rule: 'after_disclosure', chosen_by: 'jurisdiction', jurisdiction: 'US-CA', consent: null, disclosure: 'This call is recorded.', consent_prompt: null });
    // New York needs one party's: recorded from the start, as before.
    expect(twilioCall(NEW_YORK).params.Record).toBe('true');
    expect(twilioCall(NEW_YORK).apiRecording).toBeUndefined();
    expect(twilioCall(NEW_YORK).relay!.heard[0]).toBe('Hi Nye, this is Acme.');
    expect(recording(NEW_YORK)).toMatchObject({ rule: 'always', chosen_by: 'jurisdiction', jurisdiction: 'US-NY' });
    expect(byNumber.get(NEW_YORK)!.record_url).toBeTruthy();
  });
});

describe('the campaign\'s recording setting', () => {
  it('is auto by default; the owner changes it (audited), bad input is a 422 that changes nothing, a sub-user reads it only', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Settings' });
    const url = `/api/v1/campaigns/${campaign.id}/recording`;
    expect((await s.api('GET', url)).json()).toEqual({ campaign_id: campaign.id, rule: 'auto', disclosure: null, consent_prompt: null, updated_at: null });
    for (const body of [{ rule: 'sometimes' }, { rule: 'after_disclosure', disclosure: '   ' }, { rule: 'after_disclosure', disclosure: 'x'.repeat(501) }, {}]) {
      const bad = await s.api('PUT', url, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await s.api('GET', url)).json().updated_at).toBeNull();
    const set = await s.api('PUT', url, { rule: 'after_disclosure', disclosure: 'We record our calls for training.' });
    expect(set.json()).toMatchObject({ rule: 'after_disclosure', disclosure: 'We record our calls for training.', consent_prompt: null });
    // A field left out keeps its value.
    expect((await s.api('PUT', url, { rule: 'after_consent' })).json()).toMatchObject({ rule: 'after_consent', disclosure: 'We record our calls for training.' });
    const audit = await s.t.deps.db.selectFrom('audit_events').select('details').where('kind', '=', 'privacy.recording_changed').where('subject_id', '=', campaign.id).orderBy('id').execute();
    expect(audit.map((a) => (a.details as { to: { rule: string } }).to.rule)).toEqual(['after_disclosure', 'after_consent']);
    const sub = await createSubUser(s.t, s.alice.id, [campaign.id]);
    const read = await s.t.request({ method: 'GET', url, headers: sub.headers });
    expect(read.json().rule).toBe('after_consent');
    const change = await s.t.request({ method: 'PUT', url, headers: sub.headers, payload: { rule: 'always' } });
    expect(change.statusCode).toBe(403);
    expect((await s.api('GET', url)).json().rule).toBe('after_consent');
  });
});
