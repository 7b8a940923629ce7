import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { createFinishedCall } from '../../../test/helpers/finished-call.ts';
import { settled } from '../../../test/helpers/deliveries.ts';
import { startReceiver, type Receiver } from '../../../test/fakes/webhook-receiver.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { createWebhookWorker } from './webhooks.worker.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  alice = await createAccount(t);
  bob = await createAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function setup(path: string, settings: Record<string, unknown> = {}) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: `${receiver.url}${path}`, request_schema: 'name - client name\nemail - e-mail', campaign_ids: [campaign.id], ...settings } });
  expect(res.statusCode).toBe(200);
  return { id: res.json().id as number, secret: res.json().signing_secret as string, campaignId: campaign.id };
}

async function runWorker(integrationId: number, expected: number) {
  const worker = createWebhookWorker(t.deps, { pollMs: 20 });
  worker.start();
  try {
    return await settled(t.deps.db, integrationId, expected);
  } finally {
    await worker.stop();
  }
}

describe('delivery log', () => {
  it('lists deliveries newest first with status, reason, HTTP status, duration, payload, answer and times; filters by status and call', async () => {
    const s = await setup('/log');
    receiver.respond = (req) => (req.body.includes('Bad Lead') ? { status: 500, body: 'boom' } : {});
    const good = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, contact_data: { name: 'Good Lead' } });
    const bad = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, contact_data: { name: 'Bad Lead' } });
    const none = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, transcript: null });
    await runWorker(s.id, 3);
    receiver.respond = () => ({});
    const url = `/api/v1/integrations/webhooks/${s.id}/deliveries`;
    const all = await t.request({ method: 'GET', url, headers: alice.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(3);
    expect(all.json().data.map((d: { call_id: number; status: string }) => [d.call_id, d.status])).toEqual([[none.id, 'skipped'], [bad.id, 'failed'], [good.id, 'sent']]);
    const sent = all.json().data[2];
    expect(sent).toMatchObject({ kind: 'call', reason: null, http_status: 200, request_method: 'POST', payload: { name: 'Good Lead', email: null }, null_fields: ['email'], response_body: '{"ok":true}', extraction_method: 'offline' });
    expect(typeof sent.duration_ms).toBe('number');
    expect(new Date(sent.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(sent.created_at).getTime());
    expect(all.json().data[1]).toMatchObject({ http_status: 500, reason: 'receiver answered HTTP 500', response_body: 'boom' });
    const failed = await t.request({ method: 'GET', url: `${url}?status=failed&status=skipped`, headers: alice.headers });
    expect(failed.json().data.map((d: { call_id: number }) => d.call_id)).toEqual([none.id, bad.id]);
    const byCall = await t.request({ method: 'GET', url: `${url}?call_id=${good.id}`, headers: alice.headers });
    expect(byCall.json()).toMatchObject({ count: 1, data: [{ call_id: good.id }] });
    const page = await t.request({ method: 'GET', url: `${url}?skip=1&limit=1`, headers: alice.headers });
    expect(page.json()).toMatchObject({ count: 3, data: [{ call_id: bad.id }] });
    expect((await t.request({ method: 'GET', url, headers: bob.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `${url}?status=lost`, headers: alice.headers })).statusCode).toBe(422);
  });

  it('redelivers on request as a new delivery with the same webhook-id, and never while pending or for a call without transcript', async () => {
    const s = await setup('/redeliver');
    receiver.respond = (req) => (req.url === '/redeliver' && receiver.requests.filter((r) => r.url === '/redeliver').length === 1 ? { status: 503 } : {});
    const c = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId });
    const [first] = await runWorker(s.id, 1);
    receiver.respond = () => ({});
    expect(first!.status).toBe('failed');
    const res = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/deliveries/${first!.id}/redeliver`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'redeliver', redelivery_of: first!.id, call_id: c.id, status: 'sent', payload: first!.payload });
    const hits = receiver.requests.filter((r) => r.url === '/redeliver');
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['webhook-id']).toBe(hits[0]!.headers['webhook-id']);
    expect((await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${s.id}/deliveries`, headers: alice.headers })).json().count).toBe(2);

    const pending = await t.deps.db.insertInto('webhook_deliveries').values({ integration_id: s.id, owner_id: alice.id, call_id: null, kind: 'test', status: 'pending' }).returning('id').executeTakeFirstOrThrow();
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/deliveries/${pending.id}/redeliver`, headers: alice.headers })).statusCode).toBe(409);
    const skipped = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, transcript: null });
    const skippedRow = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('call_id', '=', skipped.id).executeTakeFirstOrThrow();
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/deliveries/${skippedRow.id}/redeliver`, headers: alice.headers })).statusCode).toBe(409);
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/deliveries/999999/redeliver`, headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('test endpoint', () => {
  it('sends a synthetic call now, signed, and records it as a test delivery', async () => {
    const s = await setup('/test-synthetic', { request_schema: { name: 'client', email: 'mail', recording_url: 'link' } });
    const res = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/test`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'test', status: 'sent', call_id: null, http_status: 200, payload: { name: 'Jane Sample', email: 'jane.sample@example.com', recording_url: 'https://example.com/recordings/sample.mp3' } });
    const req = receiver.requests.filter((r) => r.url === '/test-synthetic').at(-1)!;
    expect(req.headers['webhook-id']).toBe(`msg_test_${res.json().id}`);
    const expected = createHmac('sha256', Buffer.from(s.secret.slice(6), 'base64')).update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`).digest('base64');
    expect(req.headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('builds the sample from a chosen call of the caller, and refuses another account\'s call', async () => {
    const s = await setup('/test-call');
    const c = await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: s.campaignId, contact_data: { name: 'Chosen One' }, finish: false });
    const res = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/test`, headers: alice.headers, payload: { call_id: c.id } });
    expect(res.json()).toMatchObject({ kind: 'test', call_id: c.id, status: 'sent', payload: { name: 'Chosen One' } });
    const { campaigns: [bobCampaign] } = await seed(t.deps.db, { campaigns: [{ owner: bob }] });
    const bobCall = await createFinishedCall(t.deps.db, { ownerId: bob.id, campaignId: bobCampaign.id, finish: false });
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/test`, headers: alice.headers, payload: { call_id: bobCall.id } })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${s.id}/test`, headers: alice.headers, payload: { call_id: 999999 } })).statusCode).toBe(404);
  });
});
