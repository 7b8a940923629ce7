import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { CallRow, ContactRow } from '../../src/db/schema.ts';
import { createDialerWorker } from '../../src/modules/dialer/dialer.worker.ts';
import { createWebhookWorker } from '../../src/modules/webhooks/webhooks.worker.ts';
import type { BackgroundWorker } from '../../src/workers.ts';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { createAccount, type Account } from './factories.ts';
import { createTestApp, type TestApp, type TestOverrides } from './test-app.ts';
import { waitFor } from './wait-for.ts';

/**
 * The whole service against a vendor's fake over real sockets: the app listening on
 * 127.0.0.1, its dialer and webhook workers running in real time, one account, and a fake
 * webhook receiver for the customer's CRM. The vendor's fake starts once the app's address is
 * known (it calls the app back); the app then learns the fake's address and its own public URL
 * before any call is placed (adapters are built on first use, from the config as it is then).
 */
export interface VendorScene {
  t: TestApp;
  baseUrl: string;
  alice: Account;
  receiver: Receiver;
  /** A request as alice, through the whole stack. */
  api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): ReturnType<TestApp['request']>;
  /** Creates an assistant of alice's (200 expected) from `defaults` and `fields`. */
  assistant(fields: Record<string, unknown>): Promise<{ id: number }>;
  /** Adds a new contact named `name` to a campaign through the API; answers its id. */
  contact(campaignId: number, phone: string, name: string): Promise<number>;
  callsOf(campaignId: number): Promise<CallRow[]>;
  contactRow(id: number): Promise<ContactRow>;
  /** Waits until the campaign has `count` calls, none in progress. */
  settled(campaignId: number, count: number, ms?: number): Promise<CallRow[]>;
  /** Stops the workers, the receiver and the app (the test closes its fake). */
  close(): Promise<void>;
}

export async function vendorScene(
  env: Record<string, string>,
  startFake: (serviceUrl: string) => Promise<{ url: string }>,
  baseUrlSetting: 'VAPI_BASE_URL' | 'RETELL_BASE_URL' | 'TWILIO_BASE_URL',
  overrides: TestOverrides = {},
): Promise<VendorScene> {
  const t = await createTestApp({ DIALER_TICK_MS: '50', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env }, overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const fake = await startFake(baseUrl);
  const config = t.config as { PUBLIC_BASE_URL?: string; VAPI_BASE_URL: string; RETELL_BASE_URL: string; TWILIO_BASE_URL: string };
  config.PUBLIC_BASE_URL = baseUrl;
  config[baseUrlSetting] = fake.url;
  const alice = await createAccount(t);
  const receiver = await startReceiver();
  const workers: BackgroundWorker[] = [createDialerWorker(t.deps), createWebhookWorker(t.deps, { pollMs: 20 })];
  for (const w of workers) w.start();
  const db = t.deps.db;
  const api: VendorScene['api'] = (method, url, payload) => t.request({ method, url, headers: alice.headers, ...(payload !== undefined && { payload: payload as object }) });
  const callsOf = (campaignId: number) => db.selectFrom('calls').selectAll().where('campaign_id', '=', campaignId).orderBy('id').execute();
  return {
    t, baseUrl, alice, receiver, api, callsOf,
    async assistant(fields) {
      const res = await api('POST', '/api/v1/assistants/', fields);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number };
    },
    async contact(campaignId, phone, name) {
      const res = await api('POST', '/api/v1/contacts/', { campaign_id: campaignId, phone_number: phone, status: 'new', contact_data: { name } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    },
    contactRow: (id) => db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    settled: (campaignId, count, ms = 20_000) => waitFor(async () => {
      const rows = await callsOf(campaignId);
      return rows.length === count && rows.every((r) => r.status !== 'in progress') ? rows : null;
    }, ms),
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
      await t.close();
    },
  };
}
