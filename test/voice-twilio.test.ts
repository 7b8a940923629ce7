import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startFakeTwilio, twilioSign, DEFAULT_CALLEE, type FakeCallee, type FakeTwilio } from './fakes/twilio.ts';
import { startFakeStreamingLlm, type FakeLlmTurn, type FakeStreamingLlm } from './fakes/llm-stream.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { createCampaignViaApi } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { mulawRms, readAudio } from './helpers/listened-audio.ts';
import { reconcileStaleCalls } from '../src/modules/dialer/call-events/reconciler.ts';

/**
 * Our own agent on Twilio, over real sockets: the dialer places calls through a fake Twilio
 * (Calls API, signed callbacks, TwiML, ConversationRelay with a scripted callee, async AMD,
 * recordings), our agent talks with a fake OpenAI-compatible server that streams tokens and tool
 * calls, and the post-call webhook reaches the customer.
 */
const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-0001';
const FROM = '+14155550100';
const TRANSFER = '+14155550199';
const INBOUND = '+14155550177';
const LONG_ANSWER = ['This', ' is', ' Acme', ' calling', ' about', ' your', ' spring', ' order', ' and', ' a', ' special', ' offer', '.'];

/** The model: what it says depends on the caller's last words. */
function model(body: { messages: { role: string; content?: unknown }[]; stream?: boolean | null }): FakeLlmTurn {
  if (!body.stream) return { tokens: [JSON.stringify({ name: 'Ann' })] };
  const last = String([...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '').toLowerCase();
  if (last.includes('who is this')) return { tokens: LONG_ANSWER, tokenDelayMs: 40 };
  if (last.includes('interested')) return { tokens: ['Wonderful', ', we', ' will', ' call', ' you.'], toolCalls: [{ name: 'mark_outcome', arguments: { outcome: 'interested', note: 'said yes' } }, { name: 'end_call', arguments: { reason: 'done' } }] };
  if (last.includes('never call')) return { tokens: ['Understood,', ' we', ' will', ' not', ' call', ' again.'], toolCalls: [{ name: 'do_not_call', arguments: { reason: 'asked on the call' } }, { name: 'end_call', arguments: {} }] };
  if (last.includes('person')) return { tokens: ['Connecting', ' you', ' now.'], toolCalls: [{ name: 'transfer_call', arguments: { reason: 'asked for a person' } }] };
  return { tokens: ['How', ' can', ' I', ' help?'] };
}

const plan = { listen: '+14155550108', do_not_call: '+14155550107', interested: '+14155550101', transfer: '+14155550102', voicemail: '+14155550103', busy: '+14155550104', no_answer: '+14155550105', lost_end: '+14155550106' } as const;
/** The callee stays on the line, silent, until the agent ends the call (as a person would). */
const WAIT = { silenceMs: 60_000 };
const callees: Record<string, FakeCallee> = {
  [plan.interested]: { answer: 'human', steps: [{ say: 'Hello, who is this?' }, { say: 'Sorry, go on', interruptAfterTokens: 3 }, { say: 'Yes, I am interested.' }, WAIT] },
  [plan.transfer]: { answer: 'human', steps: [{ say: 'Can I talk to a person?' }, WAIT] },
  [plan.voicemail]: { answer: 'machine' },
  // The phrase list does not know this wording; the model's do_not_call tool does.
  [plan.do_not_call]: { answer: 'human', steps: [{ say: 'This household should never call again, thanks.' }, WAIT] },
  [plan.busy]: { answer: 'busy' },
  [plan.no_answer]: { answer: 'no-answer' },
  // On the line a while, then gone: long enough for an operator to listen.
  [plan.listen]: { answer: 'human', steps: [{ say: 'Hello?' }, { silenceMs: 60_000 }, { hangup: true }] },
  [plan.lost_end]: { answer: 'human', steps: [{ say: 'Yes, I am interested.' }, WAIT], dropCompleted: true },
};

let fake: FakeTwilio;
let llm: FakeStreamingLlm;
let s: VendorScene;

beforeAll(async () => {
  llm = await startFakeStreamingLlm(model);
  s = await vendorScene(
    { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM, TWILIO_CALLS_PER_SECOND: '0', PUBLIC_BASE_URL: 'http://127.0.0.1:9', LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model' },
    async () => (fake = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, callees: (to) => callees[to] ?? DEFAULT_CALLEE, timeScale: 20, ringMs: 100, replyTimeoutMs: 3000, machineHoldMs: 20_000 })),
    'TWILIO_BASE_URL',
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await llm?.close();
});

const assistant = (fields: Record<string, unknown> = {}) => s.assistant({
  name: 'Agent', provider: 'twilio', first_message: 'Hi {{contact.name}}, this is {{campaign.title}}.',
  system_prompt: 'You call {{contact.name}} about {{campaign.title}}.', voicemail_action: 'leave_message', voicemail_message: 'Hi {{contact.name}}, please call us back.',
  transfer_number: TRANSFER, ...fields,
});

describe('a campaign on Twilio with our own agent', () => {
  it('calls through Twilio: the conversation, interruptions, tools, voicemail by AMD, busy, no answer, recordings, prices and webhooks', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Spring offer', assistant_id: a.id, max_call_attempts: 1 });
    // Recorded from the start (these 415 numbers are Californian: `auto` would disclose first, test/recording-consent.test.ts).
    expect((await s.api('PUT', `/api/v1/campaigns/${campaign.id}/recording`, { rule: 'always' })).statusCode).toBe(200);
    const hook = await s.api('POST', '/api/v1/integrations/webhooks/', { url: `${s.receiver.url}/crm`, request_schema: { name: 'client name' }, campaign_ids: [campaign.id], only_interested: false });
    expect(hook.statusCode, hook.body).toBe(200);
    const names = { interested: 'Ann', transfer: 'Bo', voicemail: 'Cy', busy: 'Di', no_answer: 'Ed' } as const;
    for (const key of Object.keys(names) as (keyof typeof names)[]) await s.contact(campaign.id, plan[key], names[key]);
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const calls = await s.settled(campaign.id, 5, 40_000);
    const byNumber = Object.fromEntries(calls.map((c) => [c.to_number, c]));
    const twilioCall = (to: string) => fake.calls.find((c) => c.params.To === to)!;

    // What Twilio was asked: our numbers, our URLs with the call id, recording and AMD per the voicemail setting.
    const created = twilioCall(plan.interested).params;
    expect(created).toMatchObject({ From: FROM, Record: 'true', MachineDetection: 'DetectMessageEnd', AsyncAmd: 'true', StatusCallbackEvent: 'initiated ringing answered completed' });
    expect(created.Url).toBe(`${s.baseUrl}/api/v1/voice/twilio/twiml?call=${byNumber[plan.interested]!.id}`);

    // The interested caller: greeting, an interrupted answer kept as heard, the outcome by the model's tool.
    const ann = byNumber[plan.interested]!;
    // The campaign has no number: the call records the route's own (TWILIO_FROM_NUMBER), the one Twilio dialled from.
    expect(ann).toMatchObject({ status: 'finished', action_status: 'interested', call_ended_by: 'AI', cost: 0.014, from_number: FROM });
    // The recording comes after the call's end, in its own callback.
    const recorded = await waitFor(async () => (await s.callsOf(campaign.id)).find((c) => c.id === ann.id && c.record_url));
    expect(recorded!.record_url).toBe(twilioCall(plan.interested).recordingUrl);
    const relay = twilioCall(plan.interested).relay!;
    expect(relay.attributes.welcomeGreeting).toBe('Hi Ann, this is Spring offer.');
    expect(relay.interrupts).toHaveLength(1);
    const transcript = (ann.call_data as { transcript: { role: string; text: string }[] }).transcript;
    expect(transcript[0]).toEqual({ role: 'assistant', text: 'Hi Ann, this is Spring offer.' });
    expect(transcript).toContainEqual({ role: 'user', text: 'Hello, who is this?' });
    expect(transcript).toContainEqual({ role: 'assistant', text: relay.interrupts[0]!.utteranceUntilInterrupt.trim() });
    expect(transcript.map((t) => t.text)).not.toContain(LONG_ANSWER.join(''));
    expect(transcript.at(-1)).toEqual({ role: 'assistant', text: 'Wonderful, we will call you.' });
    // Each turn was told to the live stream as it was said, in order (the cut answer as heard).
    const told = await s.t.deps.db.selectFrom('live_events').select('data').where('call_id', '=', ann.id).where('type', '=', 'call.turn').orderBy('id').execute();
    expect(told.map((e) => ({ role: (e.data as { role: string }).role, text: (e.data as { text: string }).text }))).toEqual(transcript);
    // The model saw the filled system prompt and the tools.
    const asked = llm.seen.find((r) => r.body.stream && JSON.stringify(r.body.messages[0]).includes('Ann'))!.body;
    expect(asked.messages[0]).toEqual({ role: 'system', content: 'You call Ann about Spring offer.' });
    expect((asked.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toEqual(['end_call', 'transfer_call', 'do_not_call', 'mark_outcome']);

    // The transfer: the relay ends, Twilio comes to the action URL and dials the assistant's transfer number.
    expect(twilioCall(plan.transfer).transferTo).toBe(TRANSFER);
    expect(byNumber[plan.transfer]).toMatchObject({ status: 'finished', action_status: 'transferred' });

    // A machine: the voicemail message after the beep, the call ends voicemail.
    expect(twilioCall(plan.voicemail).said).toContain('Hi Cy, please call us back.');
    expect(byNumber[plan.voicemail]).toMatchObject({ status: 'voicemail' });
    expect(byNumber[plan.busy]).toMatchObject({ status: 'busy_or_rejected', action_status: null });
    expect(byNumber[plan.no_answer]).toMatchObject({ status: 'unavailable' });

    // Every finished call goes to the customer's webhook, with its transcript-derived payload.
    const crm = await waitFor(async () => {
      const got = s.receiver.requests.filter((r) => r.url === '/crm');
      return got.length >= 2 ? got : null;
    }, 15_000);
    expect(crm.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(crm[0]!.body)).toHaveProperty('name');
  });

  it('takes the agent\'s do_not_call tool as the opt-out: the number is suppressed with the call as its source, no retry', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id, max_call_attempts: 3, call_interval: [1] });
    const id = await s.contact(campaign.id, plan.do_not_call, 'Gus');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const [call] = await s.settled(campaign.id, 1, 20_000);
    expect((call!.call_data as { opt_out: unknown }).opt_out).toEqual({ detected_by: 'assistant', phrase: null, language: null });
    expect(await s.contactRow(id)).toMatchObject({ status: 'do_not_disturb', next_action_time: null });
    const lookup = (await s.api('GET', `/api/v1/suppressions/lookup?phone_number=${encodeURIComponent(plan.do_not_call)}`)).json();
    expect(lookup).toMatchObject({ suppressed: true, suppression: { source: 'opt_out', call_id: call!.id } });
  });

  it('lets an operator listen: Twilio forks both parties\' audio to our signed media socket, the mix reaches the operator, stopped when the operator goes', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: (await assistant()).id });
    await s.contact(campaign.id, plan.listen, 'Lu');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const call = await waitFor(async () => (await s.callsOf(campaign.id)).find((c) => c.status === 'in progress'), 10_000);
    // The vendor's id is kept beside the call from the dial (call_provider_refs) until its end.
    const ref = await waitFor(() => s.t.deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', call!.id).executeTakeFirst(), 10_000);
    const twilioCall = await fake.waitForCall(ref.provider_call_id);
    await waitFor(async () => twilioCall.status === 'in-progress', 10_000);
    const controller = new AbortController();
    const res = await fetch(`${s.baseUrl}/api/v1/live/calls/${call!.id}/audio`, { headers: s.alice.headers, signal: controller.signal });
    expect(res.status).toBe(200);
    const audio = readAudio(res);
    await waitFor(async () => audio.bytes() >= 8000, 10_000, async () => `${audio.bytes()} bytes; streams ${JSON.stringify(fake.streamsOf(twilioCall.sid))}; call ${twilioCall.status}`);
    const [stream] = fake.streamsOf(twilioCall.sid);
    // A stream per listening process, its URL naming the process (another's frames are sent on to it).
    const node = s.t.deps.mediaBridge.node;
    expect(stream).toMatchObject({ track: 'both_tracks', name: `listen-${call!.id}-${node}`, opened: true, refused: null });
    expect(stream!.url).toBe(`${s.baseUrl.replace(/^http/, 'ws')}/api/v1/voice/twilio/media?call=${call!.id}&node=${node}`);
    // The two parties' tones, mixed: far from silence.
    expect(mulawRms(audio.all().subarray(160))).toBeGreaterThan(2000);
    controller.abort();
    await audio.done;
    await waitFor(async () => stream!.stopped, 5000);
    // A handshake Twilio did not sign is refused before anything is read.
    const forged = await new Promise<number>((resolve) => {
      const ws = new WebSocket(stream!.url, { headers: { 'x-twilio-signature': 'forged' } });
      ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
      ws.on('open', () => { ws.close(); resolve(101); });
      ws.on('error', () => {});
    });
    expect(forged).toBe(403);
  });

  it('refuses a forged signature at every entry point with 403, and changes nothing', async () => {
    const base = s.baseUrl;
    const form = { CallSid: `CA${'0'.repeat(32)}`, AccountSid: SID, CallStatus: 'completed', CallDuration: '5', From: FROM, To: plan.busy, AnsweredBy: 'machine_start' };
    for (const path of ['/twiml?call=1', '/action?call=1', '/amd?call=1', '/events?call=1']) {
      const url = `${base}/api/v1/voice/twilio${path}`;
      const wrong = twilioSign('not-the-auth-token', url, form);
      for (const headers of [{ 'x-twilio-signature': wrong }, {}] as Record<string, string>[]) {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
      // A signature of other parameters is no signature of these.
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSign(TOKEN, url, { ...form, CallStatus: 'busy' }) }, body: new URLSearchParams(form) });
      expect(res.status, path).toBe(403);
    }
    const relayUrl = `${base.replace('http', 'ws')}/api/v1/voice/twilio/relay?call=1`;
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(relayUrl, { headers: { 'x-twilio-signature': twilioSign('not-the-auth-token', relayUrl, {}) } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(403);
    expect(await s.t.deps.db.selectFrom('voice_events').select('event_id').where('event_id', 'like', `%${form.CallSid}%`).execute()).toEqual([]);
    expect(await s.t.deps.db.selectFrom('agent_conversations').select('call_id').where('answered_by', '=', 'machine_start').execute()).toEqual([]);
  });

  it('settles a call whose completed callback was lost with GET Calls/{sid}.json, keeping what the agent recorded', async () => {
    const a = await assistant();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { assistant_id: a.id });
    await s.contact(campaign.id, plan.lost_end, 'Flo');
    await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
    const twilioCall = await fake.waitForCall((c) => c.params.To === plan.lost_end, 20_000);
    await twilioCall.done;
    expect((await s.callsOf(campaign.id))[0]!.status).toBe('in progress');
    await reconcileStaleCalls({ deps: { ...s.t.deps, clock: { now: () => new Date(Date.now() + 30 * 60_000) } } });
    const settled = (await s.callsOf(campaign.id))[0]!;
    expect(settled, JSON.stringify(settled)).toMatchObject({ status: 'finished', action_status: 'interested', cost: 0.014 });
    expect(settled.call_duration).toBeGreaterThan(0);
    expect((settled.call_data as { transcript: unknown[] }).transcript.length).toBeGreaterThan(1);
  });

  it('answers a call to the account\'s Twilio number with the inbound campaign\'s assistant; the caller becomes a contact', async () => {
    const a = await assistant({ first_message: 'Thanks for calling {{campaign.title}}.' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Help line', campaign_type: 'Inbound', assistant_id: a.id, campaign_phone: INBOUND });
    const caller = '+14155550188';
    const inbound = await fake.placeInboundCall({ from: caller, to: INBOUND, voiceUrl: `${s.baseUrl}/api/v1/voice/twilio/twiml`, statusCallback: `${s.baseUrl}/api/v1/voice/twilio/events`, callee: { answer: 'human', steps: [{ say: 'Yes, I am interested.' }, WAIT] } });
    await inbound.done;
    expect(inbound.relay?.attributes.welcomeGreeting).toBe('Thanks for calling Help line.');
    const [call] = await s.settled(campaign.id, 1, 20_000);
    expect(call).toMatchObject({ call_type: 'inbound', status: 'finished', action_status: 'interested' });
    const contact = await s.t.deps.db.selectFrom('contacts').selectAll().where('campaign_id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(contact.phone_number).toBe(caller);
  });
});
