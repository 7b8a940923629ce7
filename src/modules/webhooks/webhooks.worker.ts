import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createClaimWorker, type ClaimWorker } from '../../claim-worker.ts';
import type { Deps } from '../../deps.ts';
import type { Extractor } from '../../extraction/extractor.ts';
import { createGuardedDispatcher, type Resolver } from '../../shared/ssrf-guard.ts';
import { claimDeliveries, completeDeliveries, releaseClaims, sweepExpiredClaims, type ClaimedDelivery, type DeliveryOutcome } from './deliveries.repository.ts';
import { processDelivery, webhookIdFor, type WebhookRuntime } from './delivery.service.ts';
import { processCampaignDelivery } from './campaign-event.ts';
import { processTextDelivery } from './text-event.ts';
import { createSigningKeys } from './webhook-sender.ts';
import { deliveryPacing } from './worker-pacing.ts';

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
 * Sends pending post-call webhooks as a claim-worker (src/claim-worker.ts): up to
 * `concurrency` deliveries in flight, a queue of claimed rows sized by the recent send rate
 * (worker-pacing.ts), results written in batches (one UPDATE per burst of completions) so the
 * database round trips do not bound the send rate. A claimed row is sent at most once: one that
 * fails or is interrupted mid-send is never handed out again, the sweeper fails it.
 */
export function createWebhookWorker(deps: Deps, options: WebhookWorkerOptions = {}): ClaimWorker {
  const log = options.logger ?? deps.log.child({ worker: 'webhooks' });
  const concurrency = options.concurrency ?? 16;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const allowPrivate = options.allowPrivateNetworks ?? deps.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
  let runtime: ReturnType<typeof createWebhookRuntime> | null = null;

  return createClaimWorker<ClaimedDelivery, DeliveryOutcome>({
    name: 'webhooks',
    log,
    ...(options.workerId ? { workerId: options.workerId } : {}),
    tickMs: options.pollMs ?? deps.config.DIALER_TICK_MS,
    concurrency,
    pacing: deliveryPacing({ concurrency, max: options.prefetch ?? concurrency * 64 }),
    messages: { failure: 'webhook worker iteration failed', complete: 'recording webhook results failed; the sweeper will fail these deliveries' },
    onStart() {
      runtime = createWebhookRuntime(deps, options);
      if (allowPrivate) log.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS is on: webhooks may reach loopback and private networks (local development only)');
    },
    async onStopped() {
      const rt = runtime;
      runtime = null;
      await rt?.close();
    },
    source: {
      claim: (workerId, limit) => claimDeliveries(deps.db, { workerId, limit, leaseSeconds }),
      process: async ({ id, kind, call, text, campaign, integration }) => {
        if (kind === 'text' && text && integration) return processTextDelivery(runtime!, { deliveryId: id, integration, text });
        if (kind === 'campaign' && campaign && integration) return processCampaignDelivery(runtime!, { deliveryId: id, integration, ...campaign });
        if (kind === 'call' && call && integration) {
          return processDelivery(runtime!, { deliveryId: id, webhookId: webhookIdFor('call', integration.id, call.id, id), integration, call, waitForRecording: true });
        }
        const gone = kind === 'text' ? 'the text or the integration no longer exists'
          : kind === 'campaign' ? 'the campaign or the integration no longer exists' : 'the call or the integration no longer exists';
        return { id, status: 'failed', reason: gone, request_method: null, request_url: null, payload: null, extraction_method: null, null_fields: null, http_status: null, duration_ms: null, response_body: null };
      },
      complete: (workerId, outcomes) => completeDeliveries(deps.db, workerId, outcomes),
      // Claimed but never started: nothing was sent for them.
      release: (workerId, rows) => releaseClaims(deps.db, workerId, rows.map((r) => r.id)),
      // It may have been sent: never handed out again; the sweeper fails it when its lease ends.
      fail: async () => {},
      sweep: { everyMs: options.sweepEveryMs ?? 10_000, run: () => sweepExpiredClaims(deps.db), message: 'failed webhook deliveries whose worker stopped mid-send' },
    },
  });
}
