import type { Db } from '../../src/db/connection.ts';
import { createWebhookWorker } from '../../src/modules/webhooks/webhooks.worker.ts';
import type { BackgroundWorker } from '../../src/workers.ts';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { createAccount, type Account } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { waitFor } from './wait-for.ts';

export const deliveriesOf = (db: Db, integrationId: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();

/** Waits until no delivery of the integration is pending, and returns them all. */
export async function settled(db: Db, integrationId: number, expected?: number) {
  return waitFor(async () => {
    const rows = await deliveriesOf(db, integrationId);
    if (expected !== undefined && rows.length < expected) return null;
    return rows.every((r) => r.status !== 'pending') ? rows : null;
  }, 10_000, async () => JSON.stringify((await deliveriesOf(db, integrationId)).map((r) => [r.id, r.status, r.reason, r.claimed_by])));
}

export interface WebhookScene {
  t: TestApp;
  alice: Account;
  /** A fake receiver on 127.0.0.1 (the app allows private networks for it). */
  receiver: Receiver;
  worker: BackgroundWorker;
  /** Stops the worker and the receiver, then closes the app. */
  close(): Promise<void>;
}

/** An app whose webhook worker sends to a fake receiver, with one account: the delivery tests' scene. */
export async function appWithWebhookWorker(
  env: Record<string, string> = {},
  workerOptions: Parameters<typeof createWebhookWorker>[1] = {},
): Promise<WebhookScene> {
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
  const alice = await createAccount(t);
  const receiver = await startReceiver();
  const worker = createWebhookWorker(t.deps, { pollMs: 20, ...workerOptions });
  worker.start();
  return {
    t, alice, receiver, worker,
    async close() {
      await worker.stop();
      await receiver.close();
      await t.close();
    },
  };
}
