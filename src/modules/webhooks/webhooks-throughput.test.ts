import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Agent } from 'undici';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { createFinishedCall } from '../../../test/helpers/finished-call.ts';
import { settled } from '../../../test/helpers/deliveries.ts';
import { startReceiver, type Receiver } from '../../../test/fakes/webhook-receiver.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { createWebhookWorker } from './webhooks.worker.ts';
import { claimDeliveries, completeDeliveries } from './deliveries.repository.ts';
import { createSigningKeys, sendWebhook, type SendRequest } from './webhook-sender.ts';
import { exchange } from './http-exchange.ts';
import { createClaimSizer } from './worker-pacing.ts';
import { createGuardedDispatcher, type Resolver } from '../../shared/ssrf-guard.ts';

/**
 * What the faster delivery path must keep: a keep-alive connection is reused only after
 * its address was checked, every new connection is looked up and checked again, long
 * answers are cut, results are written for the claimer only and exactly as sent.
 */
let t: TestApp;
let alice: Account;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  alice = await createAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (server: Server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

function request(url: string, dispatcher: SendRequest['dispatcher']): SendRequest {
  return {
    method: 'POST', url, payload: { name: 'Ann' }, urlParams: false, timeoutMs: 5_000, dispatcher,
    auth: { type: 'none', login: null, password: null, token: null, apiKey: null, apiKeyHeader: 'X-API-KEY' },
    signingSecret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=', signingKeys: createSigningKeys(), webhookId: 'msg_1_1', timestamp: 1_900_000_000,
  };
}

describe('connections', () => {
  it('reuses a checked keep-alive connection and looks up and checks every new one', async () => {
    const { server, port } = await listen((req, res) => req.resume().on('end', () => res.end('{"ok":true}')));
    let connections = 0;
    server.on('connection', () => connections++);
    const lookups: string[] = [];
    const resolver: Resolver = async (host) => (lookups.push(host), [{ address: '127.0.0.1', family: 4 }]);
    const dispatcher = createGuardedDispatcher({ allowPrivateNetworks: true, resolver });
    try {
      for (let i = 0; i < 6; i++) expect((await sendWebhook(request(`http://hooks.test:${port}/a`, dispatcher))).ok).toBe(true);
      // undici waits an event-loop turn before reusing a socket, so back-to-back sends use two.
      expect(connections).toBeLessThanOrEqual(2);
      expect(lookups).toHaveLength(connections);
      // The receiver drops its idle connections: the next send needs a new one, looked up again.
      server.closeIdleConnections();
      await waitFor(async () => Object.values((dispatcher as Agent).stats).every((s) => s.connected === 0));
      const before = connections;
      expect((await sendWebhook(request(`http://hooks.test:${port}/a`, dispatcher))).ok).toBe(true);
      expect(connections).toBe(before + 1);
      expect(lookups).toHaveLength(connections);
    } finally {
      await dispatcher.close();
      await close(server);
    }
  });

  it('refuses each new answer on its own: a changed DNS answer is checked, not a remembered one', async () => {
    const answers = ['10.0.0.9', '127.0.0.1'];
    const dispatcher = createGuardedDispatcher({ allowPrivateNetworks: false, resolver: async () => [{ address: answers.shift()!, family: 4 }] });
    try {
      const first = await sendWebhook(request(`http://moving.test:${receiver.port}/a`, dispatcher));
      const second = await sendWebhook(request(`http://moving.test:${receiver.port}/a`, dispatcher));
      expect(first.reason).toMatch(/^blocked by SSRF protection: moving\.test resolves to 10\.0\.0\.9 is a private address/);
      expect(second.reason).toMatch(/^blocked by SSRF protection: moving\.test resolves to 127\.0\.0\.1 is a loopback address/);
      expect(receiver.requests.filter((r) => r.url === '/a')).toHaveLength(0);
    } finally {
      await dispatcher.close();
    }
  });

  it('cuts an answer longer than the read limit instead of reading it all', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const { server, port } = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      // Chunked, no content-length: 4 MB unless the client stops reading.
      const write = (left: number): void => void (left > 0 && !res.destroyed && res.write(chunk, () => write(left - 1)));
      write(64);
    });
    const dispatcher = createGuardedDispatcher({ allowPrivateNetworks: true });
    try {
      const answer = await exchange({ url: new URL(`http://127.0.0.1:${port}/big`), method: 'POST', headers: {}, body: '{}', timeoutMs: 5_000, maxRead: 100_000, dispatcher });
      expect(answer.statusCode).toBe(200);
      expect(answer.text.length).toBeGreaterThanOrEqual(100_000);
      expect(answer.text.length).toBeLessThan(1024 * 1024);
    } finally {
      await dispatcher.close();
      await close(server);
    }
  });
});

describe('results', () => {
  it('logs the payload exactly as it was sent, fields in the schema\'s order', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const path = '/ordered';
    // jsonb would store "a" before "zeta_field" (shorter keys first); the log must not.
    const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: `${receiver.url}${path}`, request_schema: 'zeta_field - last letter\na - first letter', campaign_ids: [campaign.id] } });
    expect(res.statusCode, res.body).toBe(200);
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: campaign.id });
    const worker = createWebhookWorker(t.deps, { pollMs: 20 });
    worker.start();
    try {
      await settled(t.deps.db, res.json().id, 1);
    } finally {
      await worker.stop();
    }
    const { rows } = await sql<{ payload: string }>`SELECT payload::text AS payload FROM webhook_deliveries WHERE integration_id = ${res.json().id}`.execute(t.deps.db);
    const sent = receiver.requests.find((r) => r.url === path)!;
    expect(rows[0]!.payload).toBe(sent.body);
    expect(Object.keys(JSON.parse(sent.body))).toEqual(['zeta_field', 'a']);
  });

  it('writes results for the claimer only, and only while the delivery is pending', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const res = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers, payload: { url: `${receiver.url}/claimer`, request_schema: 'name - client', campaign_ids: [campaign.id] } });
    const integrationId = res.json().id as number;
    await createFinishedCall(t.deps.db, { ownerId: alice.id, campaignId: campaign.id });
    const mine = (await claimDeliveries(t.deps.db, { workerId: 'claimer-1', limit: 100, leaseSeconds: 60 })).filter((d) => d.integration?.id === integrationId);
    expect(mine).toHaveLength(1);
    const outcome = (status: 'sent' | 'failed', reason: string | null) => ({
      id: mine[0]!.id, status, reason, request_method: 'POST', request_url: 'http://x.test/', payload: { name: 'n' },
      extraction_method: 'offline', null_fields: [], http_status: 200, duration_ms: 1, response_body: 'it\'s "quoted"',
    });
    await completeDeliveries(t.deps.db, 'someone-else', [outcome('failed', 'not mine')]);
    const row = () => t.deps.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', mine[0]!.id).executeTakeFirstOrThrow();
    expect((await row()).status).toBe('pending');
    await completeDeliveries(t.deps.db, 'claimer-1', [outcome('sent', null)]);
    expect(await row()).toMatchObject({ status: 'sent', reason: null, http_status: 200, response_body: 'it\'s "quoted"', payload: { name: 'n' } });
    await completeDeliveries(t.deps.db, 'claimer-1', [outcome('failed', 'again')]);
    expect((await row()).status).toBe('sent');
  });
});

describe('claim sizing', () => {
  it('holds about 100 ms of sending, within 2 x concurrency and the maximum, and doubles once per claim after running dry', () => {
    let clock = 0;
    const sizer = createClaimSizer({ concurrency: 16, max: 1024, now: () => clock });
    expect(sizer.target()).toBe(32);
    expect(sizer.lowWater()).toBe(16);
    // 5 sends per ms for 100 ms: 500 rows cover the next 100 ms.
    for (let i = 0; i < 500; i++) sizer.sent();
    clock += 100;
    expect(sizer.target()).toBe(500);
    // A slow receiver: the rate falls (smoothed) to the floor.
    for (let k = 0; k < 12; k++) {
      clock += 100;
      sizer.lowWater();
    }
    expect(sizer.target()).toBe(32);
    sizer.starved();
    sizer.starved();
    expect(sizer.target()).toBe(64);
    expect(sizer.target()).toBe(64);
    for (let i = 0; i < 100_000; i++) sizer.sent();
    clock += 100;
    expect(sizer.target()).toBe(1024);
  });
});
