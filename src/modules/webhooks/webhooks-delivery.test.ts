import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { createFinishedCall } from '../../../test/helpers/finished-call.ts';
import { deliveriesOf, settled, appWithWebhookWorker, type WebhookScene } from '../../../test/helpers/deliveries.ts';
import { type Receiver, type ReceivedRequest } from '../../../test/fakes/webhook-receiver.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { createWebhookWorker } from './webhooks.worker.ts';
import { enqueueWebhookDeliveries } from './enqueue-deliveries.ts';
import { createSecretBox } from '../../shared/secret-box.ts';
import { sealStoredSecrets } from './sealed-credentials.ts';

let scene: WebhookScene;
let t: TestApp;
let alice: Account;
let receiver: Receiver;

beforeAll(async () => {
  const logger = (await import('pino')).default({ level: 'error' });
  ({ t, alice, receiver } = scene = await appWithWebhookWorker({}, { logger, recordingWaitMs: 800, recordingPollMs: 25, sweepEveryMs: 50 }));
});
afterAll(() => scene?.close());

/** Every test gets its own campaign, integration and receiver path, so their deliveries never mix. */
async function setup(settings: Record<string, unknown> = {}, path = `/hook-${Math.random().toString(36).slice(2, 8)}`) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const res = await t.request({
    method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers,
    payload: { url: `${receiver.url}${path}`, request_schema: 'name - client name', campaign_ids: [campaign.id], ...settings },
  });
  expect(res.statusCode, res.body).toBe(200);
  const integration = res.json();
  const hits = () => receiver.requests.filter((r) => r.url.startsWith(path));
  return { campaignId: campaign.id, integration, path, hits };
}

const call = (campaignId: number, input: Partial<Parameters<typeof createFinishedCall>[1]> = {}) => createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId, ...input });

/** Standard Webhooks verification, written from the published algorithm, not from the service's code. */
function verify(secret: string, req: ReceivedRequest): boolean {
  const id = req.headers['webhook-id'] as string;
  const ts = req.headers['webhook-timestamp'] as string;
  const expected = createHmac('sha256', Buffer.from(secret.split('_')[1]!, 'base64')).update(`${id}.${ts}.${req.body}`).digest('base64');
  return (req.headers['webhook-signature'] as string).split(' ').some((s) => s === `v1,${expected}`);
}

describe('filters', () => {
  it('only-interested (default) sends only for action_status interested, and records the others as skipped by it', async () => {
    const s = await setup();
    const yes = await call(s.campaignId, { action_status: 'interested' });
    const none = await call(s.campaignId, { action_status: null });
    const scheduled = await call(s.campaignId, { action_status: 'scheduled' });
    const rows = await settled(t.deps.db, s.integration.id, 3);
    expect(rows.map((r) => [r.call_id, r.status, r.skipped_by, r.reason])).toEqual([
      [yes.id, 'sent', null, null],
      [none.id, 'skipped', 'only_interested', 'only interested calls are sent; this call\'s outcome was none'],
      [scheduled.id, 'skipped', 'only_interested', 'only interested calls are sent; this call\'s outcome was scheduled'],
    ]);
    expect(rows[2]!.finished_at).not.toBeNull();
    expect(s.hits()).toHaveLength(1);
  });

  it('a call skipped by only-interested is sent when its interested outcome arrives after the end', async () => {
    const s = await setup();
    const c = await call(s.campaignId, { action_status: null });
    expect((await settled(t.deps.db, s.integration.id, 1)).map((r) => r.skipped_by)).toEqual(['only_interested']);
    await t.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('calls').set({ action_status: 'interested' }).where('id', '=', c.id).execute();
      await enqueueWebhookDeliveries(trx, c.id);
    });
    const rows = await settled(t.deps.db, s.integration.id, 1);
    expect(rows.map((r) => [r.status, r.skipped_by, r.reason])).toEqual([['sent', null, null]]);
    expect(s.hits()).toHaveLength(1);
  });

  it('with only-interested off, sends after every finished call', async () => {
    const s = await setup({ only_interested: false });
    await call(s.campaignId, { action_status: null });
    await call(s.campaignId, { action_status: 'transferred', status: 'voicemail' });
    const rows = await settled(t.deps.db, s.integration.id, 2);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([['sent', null], ['sent', null]]);
    expect(s.hits()).toHaveLength(2);
  });

  it('call statuses: sends only for a chosen status; both filters must pass', async () => {
    const s = await setup({ call_statuses: ['voicemail', 'busy_or_rejected'] });
    await call(s.campaignId, { status: 'finished' });
    const vm = await call(s.campaignId, { status: 'voicemail' });
    await call(s.campaignId, { status: 'busy_or_rejected', action_status: null });
    const rows = await settled(t.deps.db, s.integration.id, 3);
    expect(rows.filter((r) => r.status === 'sent').map((r) => r.call_id)).toEqual([vm.id]);
    // The first filter that fails is the one named.
    expect(rows.filter((r) => r.status === 'skipped').map((r) => [r.skipped_by, r.reason])).toEqual([
      ['call_statuses', 'only calls with the status voicemail, busy_or_rejected are sent; this call\'s status was finished'],
      ['only_interested', 'only interested calls are sent; this call\'s outcome was none'],
    ]);
  });

  it('sends only for the integration\'s campaigns, never for a non-terminal or inactive case', async () => {
    const s = await setup();
    const { campaigns: [other] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    await call(other.id);
    await call(s.campaignId, { status: 'in progress' });
    const off = await setup({ is_active: false });
    await call(off.campaignId);
    const sent = await call(s.campaignId);
    const rows = await settled(t.deps.db, s.integration.id, 1);
    expect(rows.map((r) => r.call_id)).toEqual([sent.id]);
    expect(await deliveriesOf(t.deps.db, off.integration.id)).toHaveLength(0);
  });

  it('a call without a transcript sends nothing and is logged as skipped with the reason', async () => {
    const s = await setup();
    await call(s.campaignId, { transcript: null });
    await call(s.campaignId, { transcript: [] });
    const rows = await settled(t.deps.db, s.integration.id, 2);
    expect(rows.map((r) => [r.status, r.skipped_by, r.reason])).toEqual([['skipped', 'no_transcript', 'the call has no transcript'], ['skipped', 'no_transcript', 'the call has no transcript']]);
    // Proves a request does NOT follow: nothing to wait for, so a short while must pass.
    await new Promise((r) => setTimeout(r, 100));
    expect(s.hits()).toHaveLength(0);
  });

  it('writes one delivery per call and integration even when the dialer reports the end twice', async () => {
    const s = await setup();
    const c = await call(s.campaignId);
    await t.deps.db.transaction().execute((trx) => enqueueWebhookDeliveries(trx, c.id));
    await settled(t.deps.db, s.integration.id, 1);
    await t.deps.db.transaction().execute((trx) => enqueueWebhookDeliveries(trx, c.id));
    expect(await deliveriesOf(t.deps.db, s.integration.id)).toHaveLength(1);
    expect(s.hits()).toHaveLength(1);
  });
});

describe('the outgoing request', () => {
  it('sends a signed JSON body with Content-Type application/json and the chosen method', async () => {
    const s = await setup({ http_method: 'PUT', request_schema: { name: 'client name', email: 'e-mail' } });
    await call(s.campaignId, { contact_data: { name: 'Ann Lee' }, transcript: [{ role: 'assistant', text: 'Your e-mail?' }, { role: 'user', text: 'It is ann.lee@example.org' }] });
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    const [req] = s.hits();
    expect(req!.method).toBe('PUT');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req!.body)).toEqual({ name: 'Ann Lee', email: 'ann.lee@example.org' });
    expect(row!.payload).toEqual({ name: 'Ann Lee', email: 'ann.lee@example.org' });
    expect(verify(s.integration.signing_secret, req!)).toBe(true);
    expect(verify(s.integration.signing_secret, { ...req!, body: req!.body.replace('Ann', 'Bob') })).toBe(false);
    expect(Math.abs(Number(req!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(row!.http_status).toBe(200);
    expect(row!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(row!.finished_at).toBeInstanceOf(Date);
  });

  it('sends the fields as URL query parameters in URL-params mode, signing the empty body', async () => {
    const s = await setup({ save_data_use_url_params: true, request_schema: { name: 'client name', note: 'anything' }, url: `${receiver.url}/params-${Date.now()}?source=vc` });
    await call(s.campaignId, { contact_data: { name: 'Zoë & Co' } });
    await settled(t.deps.db, s.integration.id, 1);
    const req = receiver.requests.find((r) => r.url.includes('source=vc') && r.url.includes('Zo'))!;
    const query = new URL(req.url, 'http://x').searchParams;
    expect(query.get('source')).toBe('vc');
    expect(query.get('name')).toBe('Zoë & Co');
    expect(query.get('note')).toBe('');
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
    expect(verify(s.integration.signing_secret, req)).toBe(true);
  });

  it('adds the Basic, Bearer or API Key header of the integration', async () => {
    const basic = await setup({ auth_type: 'basic', basic_login: 'crm', basic_password: 'p@ss:word' });
    const bearer = await setup({ auth_type: 'bearer', bearer_token: 'token-123' });
    const apiKey = await setup({ auth_type: 'api_key', api_key_value: 'key-456' });
    const custom = await setup({ auth_type: 'api_key', api_key_value: 'key-789', api_key_header: 'X-Crm-Token' });
    const none = await setup();
    for (const s of [basic, bearer, apiKey, custom, none]) await call(s.campaignId);
    for (const s of [basic, bearer, apiKey, custom, none]) await settled(t.deps.db, s.integration.id, 1);
    expect(basic.hits()[0]!.headers.authorization).toBe(`Basic ${Buffer.from('crm:p@ss:word').toString('base64')}`);
    expect(bearer.hits()[0]!.headers.authorization).toBe('Bearer token-123');
    expect(apiKey.hits()[0]!.headers['x-api-key']).toBe('key-456');
    expect(custom.hits()[0]!.headers['x-crm-token']).toBe('key-789');
    expect(custom.hits()[0]!.headers.authorization).toBeUndefined();
    expect(none.hits()[0]!.headers.authorization).toBeUndefined();
    expect(none.hits()[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('stores credentials sealed, sends a row stored before sealing as it is, and seals it at start-up', async () => {
    const legacy = await setup({ auth_type: 'bearer', bearer_token: 'legacy-token-1234567' });
    await t.deps.db.updateTable('webhook_integrations').set({ bearer_token: 'legacy-token-1234567' }).where('id', '=', legacy.integration.id).execute();
    await call(legacy.campaignId);
    await settled(t.deps.db, legacy.integration.id, 1);
    expect(legacy.hits()[0]!.headers.authorization).toBe('Bearer legacy-token-1234567');

    expect(await sealStoredSecrets(t.deps.db, t.deps.secrets)).toBeGreaterThanOrEqual(1);
    const row = await t.deps.db.selectFrom('webhook_integrations').select('bearer_token').where('id', '=', legacy.integration.id).executeTakeFirstOrThrow();
    expect(row.bearer_token).toMatch(/^sealed:v1:/);
    expect(t.deps.secrets.open(row.bearer_token)).toBe('legacy-token-1234567');
    expect(await sealStoredSecrets(t.deps.db, t.deps.secrets)).toBe(0);
  });

  it('after a SECRET_KEY change fails a send (never sends it unauthenticated) and says how to repair it', async () => {
    const s = await setup({ auth_type: 'bearer', bearer_token: 'sealed-token-1234567' });
    const other = createSecretBox('another-secret-key-that-is-long-enough-9876');
    const put = (payload: Record<string, unknown>) => t.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${s.integration.id}`, headers: alice.headers, payload });
    const sendOne = async (n: number) => {
      await call(s.campaignId);
      return (await settled(t.deps.db, s.integration.id, n))[n - 1]!; // in id order: the newest is last
    };
    await t.deps.db.updateTable('webhook_integrations').set({ bearer_token: other.seal('sealed-token-1234567'), basic_password: other.seal('stale') }).where('id', '=', s.integration.id).execute();
    expect(await sendOne(1)).toMatchObject({ status: 'failed', reason: expect.stringContaining('SECRET_KEY is not the key it was sealed with; save bearer_token again (PUT)') });
    expect(s.hits()).toHaveLength(0);
    expect((await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${s.integration.id}`, headers: alice.headers })).json().bearer_token).toBe('****');

    // Saving the credential again repairs it; a stale one of another auth type does not matter.
    expect((await put({ bearer_token: 'fresh-token-1234567' })).statusCode).toBe(200);
    expect(await sendOne(2)).toMatchObject({ status: 'sent' });
    expect(s.hits()[0]!.headers.authorization).toBe('Bearer fresh-token-1234567');

    // The signing secret cannot be saved, so it is rotated.
    await t.deps.db.updateTable('webhook_integrations').set({ signing_secret: other.seal(s.integration.signing_secret) }).where('id', '=', s.integration.id).execute();
    expect(await sendOne(3)).toMatchObject({ status: 'failed', reason: expect.stringContaining(`rotate the signing secret (POST /api/v1/integrations/webhooks/${s.integration.id}/signing-secret)`) });
    const bob = await createAccount(t);
    const rotateUrl = `/api/v1/integrations/webhooks/${s.integration.id}/signing-secret`;
    expect((await t.request({ method: 'POST', url: rotateUrl, headers: bob.headers })).statusCode).toBe(403);
    const rotated = await t.request({ method: 'POST', url: rotateUrl, headers: alice.headers });
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().signing_secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(s.integration.signing_secret);
    expect(await sendOne(4)).toMatchObject({ status: 'sent' });
    expect(verify(secret, s.hits()[1]!)).toBe(true);
    expect(verify(s.integration.signing_secret, s.hits()[1]!)).toBe(false);
  });

  it('substitutes every placeholder in the URL, URL-encoded', async () => {
    const path = `/ph-${Date.now()}`;
    const q = ['contact_data.name', 'contact.id', 'contact.phone_number', 'call.id', 'call.from_number', 'call.to_number', 'call.status', 'call.action_status', 'call.call_duration', 'call.start_time', 'call.end_time', 'call.record_url'];
    const s = await setup({ url: `${receiver.url}${path}/{{call.id}}?${q.map((p, i) => `p${i}={{${p}}}`).join('&')}` }, path);
    const c = await call(s.campaignId, { contact_data: { name: 'Ann Lee/&?' }, record_url: 'https://rec.example.com/a b.mp3', call_duration: 95 });
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    const req = s.hits()[0]!;
    const url = new URL(req.url, 'http://x');
    expect(url.pathname).toBe(`${path}/${c.id}`);
    expect(q.map((_p, i) => url.searchParams.get(`p${i}`))).toEqual([
      'Ann Lee/&?', String(c.contactId), c.contactPhone, String(c.id), '+12025550100', c.contactPhone, 'finished', 'interested', '95',
      '2030-01-02T10:00:00.000Z', '2030-01-02T10:01:35.000Z', 'https://rec.example.com/a b.mp3',
    ]);
    expect(row!.request_url).toContain(`/${c.id}?`);
  });
});

describe('recording link', () => {
  it('fills record_url, call_link and recording_url with the link without the AI', async () => {
    const s = await setup({ request_schema: { name: 'client', record_url: 'link', call_link: 'link', recording_url: 'link' } });
    await call(s.campaignId, { record_url: 'https://rec.example.com/1.mp3' });
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    expect(row!.payload).toEqual({ name: 'Ann Lee', record_url: 'https://rec.example.com/1.mp3', call_link: 'https://rec.example.com/1.mp3', recording_url: 'https://rec.example.com/1.mp3' });
  });

  it('waits for the recording when an instruction uses {{call.record_url}} and uses it once it arrives', async () => {
    const s = await setup({ request_schema: { name: 'client', call_link: 'link' }, instructions: { name: 'Mention {{call.record_url}}' } });
    const c = await call(s.campaignId, { record_url: null });
    await waitFor(async () => (await deliveriesOf(t.deps.db, s.integration.id))[0]?.started_at);
    // Proves the worker does NOT send while the recording is missing: a short while must pass.
    await new Promise((r) => setTimeout(r, 150));
    expect(s.hits()).toHaveLength(0);
    await t.deps.db.updateTable('calls').set({ record_url: 'https://rec.example.com/late.mp3' }).where('id', '=', c.id).execute();
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    expect(row!.payload).toMatchObject({ call_link: 'https://rec.example.com/late.mp3' });
  });

  it('gives up waiting after the limit and sends without the link', async () => {
    const s = await setup({ request_schema: { name: 'client', recording_url: 'link' }, instructions: { name: 'see {{call.record_url}}' } });
    await call(s.campaignId, { record_url: null });
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    expect(row!.status).toBe('sent');
    expect(row!.payload).toEqual({ name: 'Ann Lee', recording_url: null });
    expect(row!.finished_at!.getTime() - row!.started_at!.getTime()).toBeGreaterThanOrEqual(750);
  });
});

describe('failures: one attempt, recorded, never retried', () => {
  const cases: [string, (req: ReceivedRequest) => ReturnType<Receiver['respond']>, RegExp, number | null][] = [
    ['a 4xx answer', () => ({ status: 404, body: 'nope' }), /HTTP 404/, 404],
    ['a 5xx answer', () => ({ status: 503, body: 'down' }), /HTTP 503/, 503],
    ['a JSON answer with an error field', () => ({ status: 200, body: '{"error":"bad lead"}' }), /field named error/, 200],
    ['a JSON answer with an errors field', () => ({ status: 201, body: '{"errors":[{"msg":"x"}]}' }), /field named errors/, 201],
    ['a redirect', () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } }), /redirect \(HTTP 302 to http:\/\/169\.254\.169\.254/, 302],
  ];
  for (const [what, respond, reason, httpStatus] of cases) {
    it(`counts ${what} as a failure`, async () => {
      const s = await setup();
      const previous = receiver.respond;
      receiver.respond = (req) => (req.url.startsWith(s.path) ? respond(req) : previous(req));
      await call(s.campaignId);
      const [row] = await settled(t.deps.db, s.integration.id, 1);
      expect(row!.status).toBe('failed');
      expect(row!.reason).toMatch(reason);
      expect(row!.http_status).toBe(httpStatus);
      // Proves the failure is NOT retried: a short while must pass without a second request.
      await new Promise((r) => setTimeout(r, 150));
      expect(s.hits()).toHaveLength(1);
      receiver.respond = previous;
    });
  }

  it('counts a text 200 as success even if it mentions error, and truncates long answers to 4 KB', async () => {
    const s = await setup();
    const previous = receiver.respond;
    receiver.respond = (req) => (req.url.startsWith(s.path) ? { headers: { 'content-type': 'text/plain' }, body: `no error here ${'x'.repeat(10_000)}` } : previous(req));
    await call(s.campaignId);
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    receiver.respond = previous;
    expect(row!.status).toBe('sent');
    expect(row!.response_body).toHaveLength(4096);
  });

  it('fails a receiver that does not answer within the timeout', async () => {
    const s = await setup({ timeout: 1 });
    const previous = receiver.respond;
    receiver.respond = (req) => (req.url.startsWith(s.path) ? { delayMs: 2500 } : previous(req));
    await call(s.campaignId);
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    receiver.respond = previous;
    expect(row!.status).toBe('failed');
    expect(row!.reason).toMatch(/timeout/);
    expect(row!.duration_ms).toBeGreaterThanOrEqual(950);
    expect(row!.duration_ms).toBeLessThan(2400);
  });

  it('fails, without sending, a claim whose worker died, instead of sending twice', async () => {
    const s = await setup();
    const c = await call(s.campaignId, { finish: false });
    await t.deps.db.transaction().execute(async (trx) => {
      await enqueueWebhookDeliveries(trx, c.id);
      await trx.updateTable('webhook_deliveries').set({ claimed_by: 'dead-worker', lease_until: sql<Date>`now() - interval '1 second'` }).where('call_id', '=', c.id).execute();
    });
    const [row] = await settled(t.deps.db, s.integration.id, 1);
    expect(row!.status).toBe('failed');
    expect(row!.reason).toMatch(/interrupted/);
    expect(s.hits()).toHaveLength(0);
  });
});

describe('concurrency', () => {
  it('sends once per call when several workers race for the same deliveries', async () => {
    const s = await setup();
    const calls: { id: number }[] = [];
    for (let i = 0; i < 30; i++) calls.push(await call(s.campaignId, { finish: false }));
    const extra = [1, 2].map((i) => createWebhookWorker(t.deps, { pollMs: 5, concurrency: 4 + i, workerId: `racer-${i}` }));
    extra.forEach((w) => w.start());
    await t.deps.db.transaction().execute(async (trx) => {
      for (const c of calls) await enqueueWebhookDeliveries(trx, c.id);
    });
    const rows = await settled(t.deps.db, s.integration.id, 30);
    await Promise.all(extra.map((w) => w.stop()));
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const ids = s.hits().map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
