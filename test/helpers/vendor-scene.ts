import type { AddressInfo } from 'node:net';
import { createDialerWorker } from '../../src/modules/dialer/dialer.worker.ts';
import { createWebhookWorker } from '../../src/modules/webhooks/webhooks.worker.ts';
import type { BackgroundWorker } from '../../src/workers.ts';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { createAccount, type Account } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

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
  /** Stops the workers, the receiver and the app (the test closes its fake). */
  close(): Promise<void>;
}

export async function vendorScene(
  env: Record<string, string>,
  startFake: (serviceUrl: string) => Promise<{ url: string }>,
  baseUrlSetting: 'VAPI_BASE_URL' | 'RETELL_BASE_URL',
): Promise<VendorScene> {
  const t = await createTestApp({ DIALER_TICK_MS: '50', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const fake = await startFake(baseUrl);
  const config = t.config as { PUBLIC_BASE_URL?: string; VAPI_BASE_URL: string; RETELL_BASE_URL: string };
  config.PUBLIC_BASE_URL = baseUrl;
  config[baseUrlSetting] = fake.url;
  const alice = await createAccount(t);
  const receiver = await startReceiver();
  const workers: BackgroundWorker[] = [createDialerWorker(t.deps), createWebhookWorker(t.deps, { pollMs: 20 })];
  for (const w of workers) w.start();
  return {
    t, baseUrl, alice, receiver,
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
      await t.close();
    },
  };
}
