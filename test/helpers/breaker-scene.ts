import { finishCalls } from '../../src/modules/dialer/call-events/call-finish.ts';
import { lockCalls } from '../../src/modules/dialer/call-events/call-locks.ts';
import type { TerminalCallStatus } from '../../src/voice/provider.ts';
import { createWebhookWorker } from '../../src/modules/webhooks/webhooks.worker.ts';
import type { BackgroundWorker } from '../../src/workers.ts';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { FakeClock } from './dialer-harness.ts';
import { createAccount, type Account } from './factories.ts';
import { seed } from './seed.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The circuit breaker's scene: an app on a fake clock, one account, a webhook worker sending to
 * a fake receiver, and calls ended the way the event batcher ends them (finishCalls in one
 * transaction per batch, the call rows locked first).
 */
export interface BreakerScene {
  t: TestApp;
  clock: FakeClock;
  alice: Account;
  receiver: Receiver;
  /** An outbound campaign of `owner` (default alice). */
  campaign(owner?: Account): Promise<number>;
  /** `n` calls of the campaign in progress (each with its contact), started now. */
  callsInProgress(campaignId: number, n: number): Promise<number[]>;
  /** Ends the calls with the statuses given, all in one batch (one transaction). */
  endBatch(ends: [callId: number, status: TerminalCallStatus][]): Promise<void>;
  /** Starts and ends calls of the campaign, one batch: `end(c, 'failed', 'failed', 'finished')`. */
  end(campaignId: number, ...statuses: TerminalCallStatus[]): Promise<void>;
  summary(campaignId: number, who?: Account): Promise<any>;
  close(): Promise<void>;
}

/** Starts `statuses.length` calls of the campaign and ends them with those statuses, in one batch, as the event batcher does. */
export async function endCallsOf(t: TestApp, campaignId: number, statuses: TerminalCallStatus[]): Promise<void> {
  const db = t.deps.db;
  const owner = await db.selectFrom('campaigns').select('owner_id').where('id', '=', campaignId).executeTakeFirstOrThrow();
  const campaign = { id: campaignId, owner_id: owner.owner_id };
  const { calls } = await seed(db, {
    contacts: statuses.map(() => ({ campaign, status: 'in progress', calls_attempts: 1 })),
    calls: statuses.map((_, i) => ({ contact: i, status: 'in progress', call_type: 'outbound', start_time: t.deps.clock.now() })),
  });
  await db.transaction().execute(async (trx) => {
    const { byId } = await lockCalls(trx, calls.map((c) => c.id), []);
    await finishCalls(trx, t.deps, calls.map((c, i) => ({ call: byId.get(c.id)!, outcome: { status: statuses[i]! } })));
  });
}

export async function breakerScene(): Promise<BreakerScene> {
  const clock = new FakeClock(Date.now());
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { clock });
  const alice = await createAccount(t);
  const receiver = await startReceiver();
  const worker: BackgroundWorker = createWebhookWorker(t.deps, { pollMs: 20 });
  worker.start();
  const db = t.deps.db;
  const scene: BreakerScene = {
    t, clock, alice, receiver,
    async campaign(owner = alice) {
      const { campaigns: [c] } = await seed(db, { campaigns: [{ owner: { id: owner.id }, title: 'Spring calls', campaign_phone: '+12125550100' }] });
      return c.id;
    },
    async callsInProgress(campaignId, n) {
      const owner = await db.selectFrom('campaigns').select('owner_id').where('id', '=', campaignId).executeTakeFirstOrThrow();
      const campaign = { id: campaignId, owner_id: owner.owner_id };
      const { calls } = await seed(db, {
        contacts: Array.from({ length: n }, () => ({ campaign, status: 'in progress', calls_attempts: 1 })),
        calls: Array.from({ length: n }, (_, i) => ({ contact: i, status: 'in progress', call_type: 'outbound', start_time: clock.now() })),
      });
      return calls.map((c) => c.id);
    },
    async endBatch(ends) {
      await db.transaction().execute(async (trx) => {
        const { byId } = await lockCalls(trx, ends.map(([id]) => id), []);
        await finishCalls(trx, t.deps, ends.map(([id, status]) => ({ call: byId.get(id)!, outcome: { status } })));
      });
    },
    async end(campaignId, ...statuses) {
      const ids = await scene.callsInProgress(campaignId, statuses.length);
      await scene.endBatch(ids.map((id, i) => [id, statuses[i]!]));
    },
    async summary(campaignId, who = alice) {
      const res = await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/summary`, headers: who.headers });
      if (res.statusCode !== 200) throw new Error(`summary: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      await worker.stop();
      await receiver.close();
      await t.close();
    },
  };
  return scene;
}
