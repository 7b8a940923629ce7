import type { Deps } from './deps.ts';
import { createAnalyticsWorker } from './modules/analytics/rollup-compaction.ts';
import { createDialerWorker } from './modules/dialer/dialer.worker.ts';
import { createImportWorker } from './modules/imports/imports.worker.ts';
import { createSuppressionImportWorker } from './modules/compliance/suppressions/suppression-imports.worker.ts';
import { createWebhookWorker } from './modules/webhooks/webhooks.worker.ts';
import { createTextSenderWorker } from './modules/messaging/text-sender.worker.ts';
import { createLivePruneWorker } from './modules/live/live-prune.worker.ts';
import { createRetentionWorker } from './modules/privacy/retention/retention.worker.ts';
import { createNumberHealthWorker } from './modules/phone-numbers/number-health.worker.ts';
import { createScenarioRunWorker } from './modules/quality/scenarios/scenario-runs.worker.ts';
import { createScoringWorker } from './modules/quality/scorecards/scoring.worker.ts';

/** A background loop: claims due work from the database until stopped. */
export interface BackgroundWorker {
  name: string;
  start(): void;
  /** Stops claiming and resolves when work in flight has finished. */
  stop(): Promise<void>;
}

/**
 * The background loops of the service. `serve` runs them beside the HTTP server;
 * `worker` runs them alone (scale-out on PostgreSQL). Each loop claims its rows with
 * SKIP LOCKED, so any number of processes may run them at once. Imports (contacts and
 * suppressions) and webhook deliveries are claim-workers (src/claim-worker.ts).
 */
export function createWorkers(deps: Deps): BackgroundWorker[] {
  // The analytics worker folds finished days into the rollup (reports stay exact without it, only slower).
  return [
    createDialerWorker(deps), createImportWorker(deps), createSuppressionImportWorker(deps), createWebhookWorker(deps), createTextSenderWorker(deps),
    createAnalyticsWorker(deps), createLivePruneWorker(deps), createNumberHealthWorker(deps), createRetentionWorker(deps),
    createScenarioRunWorker(deps), createScoringWorker(deps),
  ];
}

export function startWorkers(deps: Deps): { workers: BackgroundWorker[]; stop(): Promise<void> } {
  const workers = createWorkers(deps);
  for (const w of workers) w.start();
  return { workers, stop: async () => void (await Promise.all(workers.map((w) => w.stop()))) };
}
