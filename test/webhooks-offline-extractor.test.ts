import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app.ts';
import type { Account } from './helpers/factories.ts';
import { createFinishedCall } from './helpers/finished-call.ts';
import { settled, appWithWebhookWorker, type WebhookScene } from './helpers/deliveries.ts';
import type { Receiver } from './fakes/webhook-receiver.ts';
import { seed } from './helpers/seed.ts';
import { normaliseRequestSchema } from '../src/modules/webhooks/request-schema.ts';
import { createOfflineExtractor } from '../src/extraction/offline-extractor.ts';
import { buildMessages } from '../src/extraction/openai-extractor.ts';
import { extractiveSummary, SUMMARY_MAX_CHARS } from '../src/extraction/summary.ts';
import type { CallContext, CallFacts, ExtractionInput, TranscriptTurn } from '../src/extraction/extractor.ts';

/** No LLM_* setting: every delivery here goes through the offline extractor. */
let scene: WebhookScene;
let t: TestApp;
let alice: Account;
let receiver: Receiver;

beforeAll(async () => void ({ t, alice, receiver } = scene = await appWithWebhookWorker()));
afterAll(() => scene?.close());

async function setup(settings: Record<string, unknown>) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const path = `/offline-${campaign.id}`;
  const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: `${receiver.url}${path}`, campaign_ids: [campaign.id], ...settings } });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().id as number, campaignId: campaign.id, path };
}

const logOf = async (integrationId: number) => {
  const res = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${integrationId}/deliveries`, headers: alice.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as Record<string, unknown>[];
};
const bodiesOf = (path: string) => receiver.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);

const transcript: TranscriptTurn[] = [
  { role: 'assistant', text: 'Hello Maria, this is Sam from Solar Homes. Would you like a free roof survey next week?' },
  { role: 'user', text: 'Yes, that sounds useful. Our electricity bill went up a lot this winter.' },
  { role: 'assistant', text: 'Great. Shall we send an engineer on Tuesday morning?' },
  { role: 'user', text: 'Tuesday morning works for me.' },
  { role: 'assistant', text: 'Thank you, goodbye.' },
];
const spoken = transcript.map((turn) => turn.text).join(' ');
/** Every sentence of a summary, without the speaker labels, must be one said in the call. */
const sentencesOf = (summary: string) => summary.replace(/\b(Assistant|Contact): /g, '').split(/(?<=[.!?])\s+/);

describe('offline extractor over a real delivery (no LLM configured)', () => {
  it('fills interested from the action status and the summary from the transcript', async () => {
    const s = await setup({
      request_schema: { type: 'object', additionalProperties: false, required: ['interested', 'summary'], properties: { interested: { type: 'boolean' }, summary: { type: 'string' } } },
    });
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, action_status: 'interested', transcript });
    await settled(t.deps.db, s.id, 1);
    const [body] = bodiesOf(s.path);
    expect(body!.interested).toBe(true);
    expect(typeof body!.summary).toBe('string');
    const summary = body!.summary as string;
    expect(summary.length).toBeGreaterThan(0);
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    for (const sentence of sentencesOf(summary)) expect(spoken).toContain(sentence);
    // The contact's substantive answer is in; the goodbye is not.
    expect(summary).toContain(transcript[1]!.text.split('. ')[1]!);
    expect(summary).not.toContain(transcript[4]!.text);
    const [row] = await logOf(s.id);
    expect(row).toMatchObject({ status: 'sent', extraction_method: 'offline', null_fields: [], missing_required: [] });
  });

  it('answers the issue\'s schema (required strings) with yes / no and a summary, and logs the field nothing could fill', async () => {
    const s = await setup({
      only_interested: false,
      request_schema: 'interested - is the client interested\nsummary - short summary of the call\nfavourite_colour - the client\'s favourite colour',
    });
    const keen = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, action_status: 'scheduled', transcript });
    const declined = [transcript[0]!, { role: 'user', text: 'No, we had our roof done last year.' }];
    const cool = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, action_status: null, transcript: declined });
    await settled(t.deps.db, s.id, 2);
    const log = await logOf(s.id);
    const byCall = new Map(log.map((row) => [row.call_id, row]));
    expect((byCall.get(keen.id)!.payload as Record<string, unknown>).interested).toBe('yes');
    expect((byCall.get(cool.id)!.payload as Record<string, unknown>).interested).toBe('no');
    for (const row of log) {
      expect(row.status).toBe('sent');
      expect((row.payload as Record<string, unknown>).summary).toEqual(expect.any(String));
      expect(row.missing_required).toEqual(['favourite_colour']);
    }
  });

  it('reports in the log only the required fields a call gave no basis for', async () => {
    const s = await setup({
      request_schema: {
        type: 'object', additionalProperties: false, required: ['summary', 'budget', 'phone'],
        properties: { summary: { type: 'string' }, budget: { type: 'integer' }, notes: { type: 'string' }, phone: { type: 'string' } },
      },
    });
    const pleasantries = [{ role: 'assistant', text: 'Hello!' }, { role: 'user', text: 'Hi.' }, { role: 'assistant', text: 'Thank you, goodbye.' }];
    const call = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, transcript: pleasantries });
    await settled(t.deps.db, s.id, 1);
    const [row] = await logOf(s.id);
    // The phone falls back to the number called; nothing gives a summary, a budget or notes.
    expect(row!.payload).toEqual({ summary: null, budget: null, notes: null, phone: call.contactPhone });
    expect(row!.null_fields).toEqual(['summary', 'budget', 'notes']);
    expect(row!.missing_required).toEqual(['summary', 'budget']);
    const openapi = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(JSON.stringify(openapi)).toContain('missing_required');
  });
});

const call = (over: Partial<CallContext> = {}): CallContext => ({
  from_number: '+12025550100', to_number: '+12025550123', call_duration: 95, start_time: null, end_time: null,
  call_type: 'outbound', action_status: 'interested', status: 'finished', ...over,
});
const facts: CallFacts = { action_status_reason: 'wants a quote for 12 panels', call_ended_by: 'HUMAN', call_ended_by_reason: 'customer hung up', contact_phone: '+12025550123' };
const input = (schema: unknown, over: Partial<ExtractionInput> = {}): ExtractionInput => ({
  schema: normaliseRequestSchema(schema), instructions: {}, transcript, contact: {}, call: call(), facts, ...over,
});

describe('offline extractor: the call\'s own facts', () => {
  const extractor = createOfflineExtractor();

  it('fills status, outcome, reason, ended by, duration, phone and e-mail in the field\'s type and enum', async () => {
    const schema = {
      type: 'object', additionalProperties: false, required: [],
      properties: {
        call_outcome: { type: 'string', enum: ['Interested', 'Scheduled', 'Not reached'] }, call_status: { type: 'string' }, reason: { type: 'string' },
        ended_by: { type: 'string', enum: ['HUMAN', 'AI'] }, hangup_reason: { type: 'string' }, duration: { type: 'integer' },
        duration_minutes: { type: 'number' }, talk_time: { type: 'string' }, phone: { type: 'string' }, email: { type: 'string' },
        lead_status: { type: 'string', enum: ['hot', 'cold'] }, interest_level: { type: 'integer' }, marital_status: { type: 'string' },
      },
    };
    const c = call({ action_status: 'scheduled', call_duration: 95 });
    const result = await extractor.extract(input(schema, { call: c, contact: { e_mail: 'maria@example.org' } }));
    expect(result.payload).toEqual({
      call_outcome: 'Scheduled', call_status: c.status, reason: facts.action_status_reason, ended_by: facts.call_ended_by,
      hangup_reason: facts.call_ended_by_reason, duration: c.call_duration, duration_minutes: expect.closeTo(c.call_duration! / 60, 2),
      talk_time: String(c.call_duration), phone: facts.contact_phone, email: 'maria@example.org',
      // No enum literal fits the call's facts, nothing says a level, and a marital status is not the call's.
      lead_status: null, interest_level: null, marital_status: null,
    });
  });

  it('reads interest from the action status, then an explicit answer, and says nothing for a call nobody answered', async () => {
    const schema = {
      type: 'object', additionalProperties: false, required: [],
      properties: { interested: { type: 'boolean' }, wants_it: { type: 'string', description: 'is the client interested' }, choice: { type: 'string', enum: ['Interested', 'Not interested'], description: 'interest' } },
    };
    const cases: [string | null, string, TranscriptTurn[], boolean | null][] = [
      ['interested', 'finished', transcript, true], ['scheduled', 'finished', transcript, true], ['transferred', 'finished', transcript, true],
      [null, 'finished', [], false], [null, 'voicemail', [], null],
      [null, 'finished', [{ role: 'assistant', text: 'Are you interested?' }, { role: 'user', text: 'Yes, definitely.' }], true],
      ['interested', 'finished', [{ role: 'assistant', text: 'Are you interested?' }, { role: 'user', text: 'No.' }], true],
    ];
    for (const [action_status, status, turns, expected] of cases) {
      const { payload } = await extractor.extract(input(schema, { call: call({ action_status, status }), transcript: turns }));
      const label = `${action_status}/${status}`;
      expect(payload.interested, label).toBe(expected);
      expect(payload.wants_it, label).toBe(expected === null ? null : expected ? 'yes' : 'no');
      expect(payload.choice, label).toBe(expected === null ? null : expected ? 'Interested' : 'Not interested');
    }
    // An example object (not all strings, so not read as descriptions) sets the vocabulary.
    const fromExample = await extractor.extract(input({ interested: 'Yes', attempts: 1 }, { call: call({ action_status: null }), transcript: [] }));
    expect(fromExample.payload).toEqual({ interested: 'No', attempts: null });
  });

  it('prefers a value the provider stored with the call, and never sends the facts to an LLM', async () => {
    const provided = 'Maria asked for a survey on Tuesday.';
    const result = await extractor.extract(input({ summary: 'summary' }, { call: call({ call_data: { summary: provided } }) }));
    expect(result.payload).toEqual({ summary: provided });
    const messages = JSON.stringify(buildMessages(input({ reason: 'reason' })));
    expect(messages).not.toContain(facts.action_status_reason!);
    expect(messages).not.toContain(facts.call_ended_by_reason!);
  });
});

describe('extractive summary', () => {
  it('is deterministic, bounded, made of sentences said in the call, and skips pleasantries', () => {
    const long = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', text: `Point number ${i} is about the roof, the panels and the monthly price of the offer.` }));
    const summary = extractiveSummary(long)!;
    expect(summary).toBe(extractiveSummary(long));
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    const said = long.map((turn) => turn.text).join(' ');
    for (const sentence of sentencesOf(summary)) expect(said).toContain(sentence.replace(/…$/, ''));
    expect(extractiveSummary([{ role: 'assistant', text: 'Hello!' }, { role: 'user', text: 'Hi, thank you.' }])).toBeNull();
    expect(extractiveSummary([{ role: 'transcript', text: 'Good morning. We talked about the new boiler and its price.' }])).toBe('We talked about the new boiler and its price.');
  });
});
