import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createBackgroundLoop } from '../../background-loop.ts';
import type { Deps } from '../../deps.ts';
import type { Extractor } from '../../extraction/extractor.ts';
import { createGuardedDispatcher, type Resolver } from '../../shared/ssrf-guard.ts';
import type { BackgroundWorker } from '../../workers.ts';
import { claimDeliveries, completeDeliveries, releaseClaims, sweepExpiredClaims, type ClaimedDelivery, type DeliveryOutcome } from './deliveries.repository.ts';
import { processDelivery, webhookIdFor, type WebhookRuntime } from './delivery.service.ts';
import { createSigningKeys } from './webhook-sender.ts';
import { createClaimSizer, withRetry } from './worker-pacing.ts';

export interface WebhookWorkerOptions {
  /** Deliveries processed at once by this process. */
  concurrency?: number;
  /**
   * The most rows claimed ahead (default 64 x concurrency). Within it the queue holds
   * about 100 ms of sending at the recent rate and is topped up when half empty.
   */
  prefetch?: number;
  pollMs?: number;
  /** Longer than the worst case: 20 s recording wait + LLM + 120 s timeout. */
  leaseSeconds?: number;
  sweepEveryMs?: number;
  allowPrivateNetworks?: boolean;
  resolver?: Resolver;
  extractor?: Extractor;
  recordingWaitMs?: number;
  recordingPollMs?: number;
  /** Default: the process logger (deps.log). */
  logger?: Logger;
  workerId?: string;
}

/** Builds the runtime the worker and the API routes share. */
export function createWebhookRuntime(deps: Deps, options: WebhookWorkerOptions = {}): WebhookRuntime & { close(): Promise<void> } {
  const dispatcher = createGuardedDispatcher({
    allowPrivateNetworks: options.allowPrivateNetworks ?? deps.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  return {
    db: deps.db,
    dispatcher,
    extractor: options.extractor ?? deps.extractor,
    now: () => deps.clock.now(),
    recordingWaitMs: options.recordingWaitMs ?? 20_000,
    recordingPollMs: options.recordingPollMs ?? 500,
    sleep: (ms) => delay(ms),
    secrets: deps.secrets,
    signingKeys: createSigningKeys(),
    metrics: deps.metrics,
    close: () => dispatcher.close(),
  };
}

/**
 * Sends pending post-call webhooks. Keeps up to `concurrency` deliveries in flight,
 * claims more as slots free up, and writes results in batches (one UPDATE per burst
 * of completions) so the database round trips do not bound the send rate.
 */
export function createWebhookWorker(deps: Deps, options: WebhookWorkerOptions = {}): BackgroundWorker {
  const log = options.logger ?? deps.log.child({ worker: 'webhooks' });
  const workerId = options.workerId ?? `webhooks-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 16;
  const sizer = createClaimSizer({ concurrency, max: options.prefetch ?? concurrency * 64 });
  const pollMs = options.pollMs ?? deps.config.DIALER_TICK_MS;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const sweepEveryMs = options.sweepEveryMs ?? 10_000;
  let runtime: ReturnType<typeof createWebhookRuntime> | null = null;
  let running = false;
  const inFlight = new Set<Promise<void>>();

  // Completions are gathered for one event-loop turn and written together.
  let buffer: DeliveryOutcome[] = [];
  let scheduled: Promise<void> | null = null;
  let chain: Promise<void> = Promise.resolve();
  const complete = (outcome: DeliveryOutcome): Promise<void> => {
    buffer.push(outcome);
    if (!scheduled) {
      const next: Promise<void> = chain
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(async () => {
          const batch = buffer;
          buffer = [];
          scheduled = null;
          await withRetry(() => completeDeliveries(deps.db, workerId, batch));
        });
      scheduled = next;
      chain = next.catch((error) => log.error({ err: error }, 'recording webhook results failed; the sweeper will fail these deliveries'));
    }
    return scheduled;
  };

  // Claimed rows wait here for a free slot: one claim statement serves many sends.
  const queue: ClaimedDelivery[] = [];
  let lastSweep = 0;
  const loop = createBackgroundLoop({
    name: 'webhooks',
    log,
    tickMs: pollMs,
    failure: { message: 'webhook worker iteration failed' },
    round: () => claimAndStart(runtime!),
  });

  function startOne(rt: WebhookRuntime, { id, call, integration }: ClaimedDelivery) {
    const task = (async () => {
      const outcome: DeliveryOutcome =
        call && integration
          ? await processDelivery(rt, { deliveryId: id, webhookId: webhookIdFor('call', integration.id, call.id, id), integration, call, waitForRecording: true })
          : { id, status: 'failed', reason: 'the call or the integration no longer exists', request_method: null, request_url: null, payload: null, extraction_method: null, null_fields: null, http_status: null, duration_ms: null, response_body: null };
      // The slot frees once the request is done; the result joins the next batched write.
      void complete(outcome).catch(() => undefined);
    })();
    inFlight.add(task);
    void task.finally(() => {
      inFlight.delete(task);
      sizer.sent();
      // Refill the slot at once, without waiting for the loop's next turn (it may be mid-claim).
      if (running && queue.length > 0) startOne(rt, queue.shift()!);
      // A slot with nothing to take: the queue was sized too small for this receiver.
      else if (running) sizer.starved();
      // The loop only has work when the queue needs topping up (or on stop); waking it
      // after every send cost a timer and an abort signal per delivery.
      if (queue.length <= sizer.lowWater()) loop.wake();
    });
  }

  /** One turn of the loop: sweep when due, top the queue up, fill the free slots. True: turn again at once. */
  async function claimAndStart(rt: WebhookRuntime): Promise<boolean> {
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      const swept = await sweepExpiredClaims(deps.db);
      if (swept > 0) log.warn({ swept }, 'failed webhook deliveries whose worker stopped mid-send');
    }
    let claimed = 0;
    // Top up well before the queue runs dry: a claim takes a round trip or two, sends go on meanwhile.
    if (queue.length <= sizer.lowWater()) {
      const rows = await claimDeliveries(deps.db, { workerId, limit: Math.max(1, sizer.target() - queue.length), leaseSeconds });
      queue.push(...rows);
      claimed = rows.length;
    }
    while (inFlight.size < concurrency && queue.length > 0) startOne(rt, queue.shift()!);
    // Nothing more to claim, or every slot busy: wait for a finished send (a wake-up) or the next poll.
    return !(claimed === 0 || inFlight.size >= concurrency);
  }

  /** After the last turn: the sends in flight finish, the rows never started go back, the results are written. */
  async function drain() {
    await Promise.all(inFlight);
    // Claimed but never started: hand them back, they were not sent.
    if (queue.length > 0) await withRetry(() => releaseClaims(deps.db, workerId, queue.splice(0).map((q) => q.id)));
    await chain;
  }

  let stopping: Promise<void> = Promise.resolve();
  return {
    name: 'webhooks',
    start() {
      if (running) return;
      running = true;
      lastSweep = 0;
      runtime = createWebhookRuntime(deps, options);
      if (options.allowPrivateNetworks ?? deps.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
        log.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS is on: webhooks may reach loopback and private networks (local development only)');
      }
      loop.start();
    },
    stop() {
      if (!running) return stopping;
      running = false;
      const rt = runtime;
      stopping = (async () => {
        await loop.stop();
        await drain();
        await rt?.close();
        if (runtime === rt) runtime = null;
      })();
      return stopping;
    },
  };
}
