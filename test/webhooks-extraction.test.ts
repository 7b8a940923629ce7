import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app.ts';
import type { Account } from './helpers/factories.ts';
import { createFinishedCall } from './helpers/finished-call.ts';
import { settled, appWithWebhookWorker, type WebhookScene } from './helpers/deliveries.ts';
import { startFakeLlm } from './fakes/llm-server.ts';
import type { Receiver } from './fakes/webhook-receiver.ts';
import { seed } from './helpers/seed.ts';
import { createOfflineExtractor } from '../src/extraction/offline-extractor.ts';
import { normaliseRequestSchema } from '../src/modules/webhooks/request-schema.ts';

let llmAnswer: (body: any) => { status?: number; content?: unknown; raw?: string } = () => ({ content: {} });
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let scene: WebhookScene;
let t: TestApp;
let alice: Account;
let receiver: Receiver;

beforeAll(async () => {
  llm = await startFakeLlm((body) => llmAnswer(body));
  ({ t, alice, receiver } = scene = await appWithWebhookWorker({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test-123', LLM_MODEL: 'test-model' }));
});
afterAll(async () => {
  await scene?.close();
  await llm?.close();
});

async function setup(settings: Record<string, unknown>) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: `${receiver.url}/llm-${campaign.id}`, campaign_ids: [campaign.id], ...settings } });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().id as number, campaignId: campaign.id, path: `/llm-${campaign.id}` };
}

const transcript = [
  { role: 'assistant', text: 'Hello, are you interested in our offer?' },
  { role: 'user', text: 'Yes, call me back at +1 202 555 0199, or mail ann@example.org.' },
];

describe('OpenAI-compatible extractor', () => {
  it('asks with a strict json_schema derived from the user schema and exactly the API\'s context', async () => {
    llmAnswer = () => ({ content: { budget: 5000, interested: true, city: null } });
    const s = await setup({
      request_schema: { type: 'object', properties: { budget: { type: 'integer' }, interested: { type: 'boolean', description: 'wants it' }, city: { type: ['string', 'null'], enum: ['Paris', 'Rome'] } }, required: ['budget'], additionalProperties: false },
      instructions: { budget: 'Budget of {{contact_data.name}} for call {{call.id}} ({{call.status}})' },
    });
    const call = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, transcript, contact_data: { name: 'Ann Lee', source: 'web' }, record_url: 'https://rec.example.com/1.mp3', extra_call_data: { summary: 'keen' } });
    const [row] = await settled(t.deps.db, s.id, 1);
    expect(row!.status).toBe('sent');
    expect(row!.extraction_method).toBe('llm:test-model');
    const seen = llm.seen.at(-1)!;
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-test-123');
    expect(seen.body.model).toBe('test-model');
    expect(seen.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'webhook_payload', strict: true,
        schema: {
          type: 'object', additionalProperties: false, required: ['budget', 'interested', 'city'],
          properties: { budget: { type: ['integer', 'null'] }, interested: { type: ['boolean', 'null'], description: 'wants it' }, city: { type: ['string', 'null'], enum: ['Paris', 'Rome', null] } },
        },
      },
    });
    const user = seen.body.messages.find((m: { role: string }) => m.role === 'user').content as string;
    expect(user).toContain(`budget: Budget of Ann Lee for call ${call.id} (finished)`);
    const context = JSON.parse(user.slice(user.indexOf('Context:\n') + 'Context:\n'.length));
    expect(context.transcript).toEqual(transcript);
    expect(context.contact_data).toEqual({ name: 'Ann Lee', source: 'web' });
    expect(Object.keys(context.call).sort()).toEqual(['action_status', 'call_data', 'call_duration', 'call_type', 'end_time', 'from_number', 'record_url', 'start_time', 'status', 'to_number']);
    expect(context.call).toMatchObject({ status: 'finished', action_status: 'interested', call_type: 'outbound', call_duration: 95, start_time: '2030-01-02T10:00:00.000Z', record_url: 'https://rec.example.com/1.mp3', call_data: { summary: 'keen' } });
    expect(JSON.parse(receiver.requests.find((r) => r.url === s.path)!.body)).toEqual({ budget: 5000, interested: true, city: null });
  });

  it('repairs to null every value that does not fit the schema and drops unknown fields', async () => {
    llmAnswer = () => ({ content: { age: '42', score: 'high', ok: 'yes', plan: 'gold', name: 7, extra: 'x' } });
    const s = await setup({ request_schema: { type: 'object', properties: { age: { type: 'integer' }, score: { type: 'number' }, ok: { type: 'boolean' }, plan: { type: 'string', enum: ['basic', 'pro'] }, name: { type: 'string' } }, required: [], additionalProperties: false } });
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId });
    const [row] = await settled(t.deps.db, s.id, 1);
    expect(row!.payload).toEqual({ age: null, score: null, ok: null, plan: null, name: null });
    expect(row!.null_fields).toEqual(['age', 'score', 'ok', 'plan', 'name']);
  });

  it('fails the delivery with the reason when the LLM fails, and sends nothing', async () => {
    for (const answer of [{ status: 500, raw: '{"error":"overloaded"}' }, { raw: '{"choices":[{"message":{"content":"not json"}}]}' }]) {
      llmAnswer = () => answer;
      const s = await setup({ request_schema: 'name - client' });
      await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId });
      const [row] = await settled(t.deps.db, s.id, 1);
      expect(row!.status).toBe('failed');
      expect(row!.reason).toMatch(answer.status ? /LLM answered HTTP 500/ : /not a JSON object/);
      expect(receiver.requests.filter((r) => r.url === s.path)).toHaveLength(0);
    }
  });
});

describe('offline extractor', () => {
  const extractor = createOfflineExtractor();
  const call = { from_number: '+12025550100', to_number: '+12025550123', call_duration: 80, start_time: null, end_time: null, call_type: 'outbound', action_status: 'interested', status: 'finished' };

  it('fills e-mails, phones, dates, explicit yes/no, enum literals, numbers and names; everything else null', async () => {
    const schema = normaliseRequestSchema({
      type: 'object', additionalProperties: false, required: [],
      properties: {
        email: { type: 'string' }, phone: { type: 'string' }, meeting_date: { type: 'string' }, wants_demo: { type: 'boolean' }, has_car: { type: 'boolean' },
        plan: { type: 'string', enum: ['basic', 'pro'] }, employees: { type: 'integer' }, full_name: { type: 'string' }, favourite_colour: { type: 'string' }, status: { type: 'string' },
      },
    });
    const result = await extractor.extract({
      schema, instructions: {}, contact: { first_name: 'Ann', last_name: 'Lee' }, call,
      transcript: [
        { role: 'assistant', text: 'Would you like a demo?' }, { role: 'user', text: 'Yes please.' },
        { role: 'assistant', text: 'Do you have a car?' }, { role: 'user', text: 'No, I do not.' },
        { role: 'assistant', text: 'How many employees do you have?' }, { role: 'user', text: 'About 1,250 people.' },
        { role: 'assistant', text: 'Which plan, and when shall we meet?' }, { role: 'user', text: 'The Pro plan, on 14.03.2030. Mail me at ann.lee@example.org or call +1 (202) 555-0147.' },
      ],
    });
    expect(result).toEqual({
      method: 'offline',
      payload: { email: 'ann.lee@example.org', phone: '+12025550147', meeting_date: '2030-03-14', wants_demo: true, has_car: false, plan: 'pro', employees: 1250, full_name: 'Ann Lee', favourite_colour: null, status: 'finished' },
      nulls: ['favourite_colour'],
    });
  });

  it('leaves a boolean null when nobody answered yes or no', async () => {
    const schema = normaliseRequestSchema({ type: 'object', properties: { callback: { type: 'boolean' } } });
    const result = await extractor.extract({ schema, instructions: {}, contact: {}, call, transcript: [{ role: 'assistant', text: 'Shall we call back?' }, { role: 'user', text: 'Maybe later, not sure.' }] });
    expect(result.payload).toEqual({ callback: null });
  });
});
