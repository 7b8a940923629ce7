import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactLogLine } from '../src/logger.ts';
import { startFakeLlm } from './fakes/llm-server.ts';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { PRIVATE_VALUES } from './fakes/vapi-script.ts';
import { createAccount, createCampaignViaApi } from './helpers/factories.ts';
import { vendorScene, type VendorScene } from './helpers/vendor-scene.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * Redaction before anything is stored or sent, end to end over real sockets: a Vapi call (the
 * fake) where the person reads out a card number, an IBAN and an e-mail, whose live turns, end
 * report and post-call analysis arrive as Vapi sends them; the customer's webhook built by an LLM
 * (the fake) that copies what it can. Afterwards no table of the database, no log line and no
 * webhook body holds any of the three; their markers are where they were said.
 */
const KEY = 'fake-vapi-key-redact';
const SECRET = 'vapi-server-secret-redact';
const LINE = '+12125550100';
const PERSON = '+12125550161';
let fake: FakeVapi;
let s: VendorScene;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
const logged: string[] = [];
// Every form the values could be written in: as said, compact, and parts of them.
const NEEDLES = [
  PRIVATE_VALUES.card, PRIVATE_VALUES.card.replaceAll(' ', ''), '1111 1111',
  PRIVATE_VALUES.iban, PRIVATE_VALUES.iban.replaceAll(' ', ''), '0532 0130',
  PRIVATE_VALUES.email, 'jo.private',
];

beforeAll(async () => {
  // The model copies the values into the payload whatever the transcript it was given says.
  llm = await startFakeLlm(() => ({ content: { notes: `paid with ${PRIVATE_VALUES.card}`, email: PRIVATE_VALUES.email } }));
  const log = pino({ level: 'debug', hooks: { streamWrite: redactLogLine } }, { write: (line: string) => void logged.push(line) });
  s = await vendorScene(
    { VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-out', VAPI_CALLS_PER_SECOND: '0', LLM_BASE_URL: llm.url, LOG_LEVEL: 'debug' },
    async (serviceUrl) => (fake = await startFakeVapi({
      apiKey: KEY, webhookSecret: SECRET, serverUrl: `${serviceUrl}/api/v1/voice/vapi/events`,
      phoneNumbers: { 'pn-out': LINE }, maxConcurrent: 5, ringMs: 20, talkMs: 80, timeScale: 60,
    })),
    'VAPI_BASE_URL',
    { log },
  );
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await llm?.close();
});

/** Every row of every table of this test's database, as text, that holds one of the needles. */
async function rowsHolding(needles: readonly string[]): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`.execute(s.t.deps.db);
  expect(tables.length).toBeGreaterThan(30);
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(name)} t`.execute(s.t.deps.db);
    for (const { row } of rows) for (const needle of needles) if (row.includes(needle)) found.push(`${name}: ${needle}`);
  }
  return found;
}

describe('a call that speaks a card number, an IBAN and an e-mail', () => {
  it('leaves no trace of them in any table, log line or webhook body: markers where they were said', async () => {
    const put = await s.api('PUT', '/api/v1/privacy/redaction', { categories: ['card', 'iban', 'ssn', 'email'], places: ['transcript', 'call_data', 'payload'] });
    expect(put.statusCode, put.body).toBe(200);
    const assistant = await s.assistant({ name: 'Billing', provider: 'vapi', first_message: 'Hi {{contact.name}}.', system_prompt: 'You take payment details.', max_duration_seconds: 300 });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Renewals', assistant_id: assistant.id, max_call_attempts: 1 });
    const hook = await s.api('POST', '/api/v1/integrations/webhooks/', {
      url: `${s.receiver.url}/crm`, campaign_ids: [campaign.id], only_interested: false,
      request_schema: { notes: 'what the contact said about paying', email: 'the contact\'s e-mail' },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    fake.script(PERSON, 'private');
    await s.contact(campaign.id, PERSON, 'Jo');
    expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`)).statusCode).toBe(200);
    const [call] = await s.settled(campaign.id, 1);
    const delivery = await waitFor(async () => {
      const row = await s.t.deps.db.selectFrom('webhook_deliveries').select(['status', 'reason', 'skipped_by']).where('call_id', '=', call!.id).executeTakeFirst();
      return row && row.status !== 'pending' && row.status !== 'sending' ? row : null;
    }, 20_000);
    expect(delivery, JSON.stringify(delivery)).toMatchObject({ status: 'sent' });

    // The values were said and reached us: the vendor's report held them.
    const report = fake.calls.find((c) => c.call.customer?.number === PERSON);
    expect(report).toBeTruthy();
    // Stored where they were said, as markers.
    const data = call!.call_data as { transcript: { role: string; text: string }[]; analysis: { summary: string; structuredData: { email: string } } };
    expect(data.transcript.find((t) => t.role === 'user')!.text).toBe('Yes. My card is [CARD], my IBAN is [IBAN] and my mail is [EMAIL].');
    expect(data.analysis.summary).toBe('The contact paid with card [CARD] and gave [EMAIL].');
    expect(data.analysis.structuredData.email).toBe('[EMAIL]');
    const turns = await s.t.deps.db.selectFrom('live_events').select('data').where('call_id', '=', call!.id).where('type', '=', 'call.turn').execute();
    expect(turns.map((r) => (r.data as { text: string }).text)).toContain('Yes. My card is [CARD], my IBAN is [IBAN] and my mail is [EMAIL].');
    // The model was given the redacted transcript; what it copied anyway is redacted in the payload sent and kept.
    const asked = JSON.stringify(llm.seen.map((r) => r.body));
    expect(asked).toContain('[CARD]');
    for (const needle of NEEDLES) expect(asked).not.toContain(needle);
    const sent = s.receiver.requests.filter((r) => r.url === '/crm');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body)).toEqual({ notes: 'paid with [CARD]', email: '[EMAIL]' });

    // Nowhere in the database, the log or any request we sent.
    expect(await rowsHolding(NEEDLES)).toEqual([]);
    expect(logged.length).toBeGreaterThan(5);
    const log = logged.join('');
    for (const needle of NEEDLES) expect(log).not.toContain(needle);
    for (const r of s.receiver.requests) for (const needle of NEEDLES) expect(r.body).not.toContain(needle);
  });

  it('keeps what the account chose not to redact, and a campaign may choose otherwise', async () => {
    // The account redacts nothing; this campaign redacts cards in its transcripts only.
    expect((await s.api('PUT', '/api/v1/privacy/redaction', { categories: [], places: ['transcript', 'call_data', 'payload'] })).statusCode).toBe(200);
    const assistant = await s.assistant({ name: 'Billing 2', provider: 'vapi', first_message: 'Hi.', system_prompt: 'You take payment details.', max_duration_seconds: 300 });
    const open = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Open', assistant_id: assistant.id, max_call_attempts: 1 });
    const strict = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Strict', assistant_id: assistant.id, max_call_attempts: 1 });
    const own = await s.api('PUT', `/api/v1/campaigns/${strict.id}/redaction`, { categories: ['card'], places: ['transcript'] });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ categories: ['card'], places: ['transcript'], effective: { categories: ['card'], places: ['transcript'] } });
    fake.script('+12125550162', 'private');
    fake.script('+12125550163', 'private');
    await s.contact(open.id, '+12125550162', 'Open Jo');
    await s.contact(strict.id, '+12125550163', 'Strict Jo');
    for (const c of [open, strict]) expect((await s.api('POST', `/api/v1/campaigns/enqueue_calls/${c.id}`)).statusCode).toBe(200);
    const [openCall] = await s.settled(open.id, 1);
    const [strictCall] = await s.settled(strict.id, 1);
    const said = (call: typeof openCall) => (call!.call_data as { transcript: { role: string; text: string }[] }).transcript.find((t) => t.role === 'user')!.text;
    expect(said(openCall)).toContain(PRIVATE_VALUES.card);
    expect(said(strictCall)).toBe(`Yes. My card is [CARD], my IBAN is ${PRIVATE_VALUES.iban} and my mail is ${PRIVATE_VALUES.email}.`);
    // Not in the call_data place: the vendor's analysis keeps the card on the strict campaign.
    expect((strictCall!.call_data as { analysis: { summary: string } }).analysis.summary).toContain(PRIVATE_VALUES.card);
  });
});

describe('the redaction settings', () => {
  it('default to cards, IBANs and national ids everywhere; only the owner changes them, audited; bad input changes nothing', async () => {
    const bob = await createAccount(s.t);
    const fresh = await s.t.request({ method: 'GET', url: '/api/v1/privacy/redaction', headers: bob.headers });
    expect(fresh.json()).toEqual({ categories: ['card', 'iban', 'ssn'], places: ['transcript', 'call_data', 'payload'], updated_at: null });
    for (const payload of [{ categories: ['card', 'tattoo'], places: [] }, { categories: ['card', 'card'], places: [] }, { categories: ['card'] }, { categories: 'card', places: [] }]) {
      const bad = await s.t.request({ method: 'PUT', url: '/api/v1/privacy/redaction', headers: bob.headers, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect((await s.t.request({ method: 'GET', url: '/api/v1/privacy/redaction', headers: bob.headers })).json().updated_at).toBeNull();
    const set = await s.t.request({ method: 'PUT', url: '/api/v1/privacy/redaction', headers: bob.headers, payload: { categories: ['email', 'card'], places: ['payload'] } });
    expect(set.json()).toMatchObject({ categories: ['card', 'email'], places: ['payload'] });
    const audit = await s.t.deps.db.selectFrom('audit_events').select(['details']).where('kind', '=', 'privacy.redaction_changed').where('owner_id', '=', bob.id).execute();
    expect(audit.map((a) => a.details)).toEqual([{ from: { categories: ['card', 'iban', 'ssn'], places: ['transcript', 'call_data', 'payload'] }, to: { categories: ['card', 'email'], places: ['payload'] } }]);
    // The same again is not a change.
    await s.t.request({ method: 'PUT', url: '/api/v1/privacy/redaction', headers: bob.headers, payload: { categories: ['card', 'email'], places: ['payload'] } });
    expect(await s.t.deps.db.selectFrom('audit_events').select('id').where('kind', '=', 'privacy.redaction_changed').where('owner_id', '=', bob.id).execute()).toHaveLength(1);
  });
});
