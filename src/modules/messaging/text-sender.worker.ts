import { createClaimWorker, defaultWorkerId, type ClaimWorker } from '../../claim-worker.ts';
import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { TEXTS_CHANNEL } from './message-jobs.repository.ts';
import { claimDueTextJobs, failLostSends, reclaimStaleTextJobs, releaseTextJobs } from './text-jobs.repository.ts';
import { sendTextJobs } from './send-text.ts';

/**
 * The text sender: a claim-worker (src/claim-worker.ts) over message_jobs. Each job is written
 * (LLM or template), checked against the law, recorded as a Message and sent, in send-text.ts.
 * Any number of processes run it: claims are SKIP LOCKED, and the Message row is written in the
 * transaction that ends the claim, before the send, so a text is sent at most once.
 */
const LEASE_MS = 5 * 60_000;
/** A send without an answer or a delivery report by then is failed (never resent). */
const LOST_AFTER_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 60_000;
/** Texts claimed and written together (one transaction, a handful of statements). */
const BATCH = 50;

export interface TextSenderOptions {
  workerId?: string;
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  lostAfterMs?: number;
  /** How often the sweep hands back dead claims and fails lost sends (tests shorten it with the lease). */
  sweepMs?: number;
  batch?: number;
}

export function createTextSenderWorker(deps: Deps, options: TextSenderOptions = {}): ClaimWorker {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lostAfterMs = options.lostAfterMs ?? LOST_AFTER_MS;
  const batch = options.batch ?? BATCH;
  return createClaimWorker<MessageJobRow[]>({
    name: 'text-sender',
    log: deps.log.child({ worker: 'text-sender' }),
    workerId: options.workerId ?? defaultWorkerId('text-sender'),
    tickMs: options.pollMs ?? deps.config.DIALER_TICK_MS,
    // Each job of the claim-worker is a batch of texts: two batches in flight.
    concurrency: options.concurrency ?? 2,
    listen: { database: deps.database, channel: TEXTS_CHANNEL },
    wakeOn: (wake) => deps.jobWakes.onWake(TEXTS_CHANNEL, wake),
    messages: { failure: 'text send failed' },
    source: {
      claim: async (workerId, limit) => {
        const jobs = await claimDueTextJobs(deps.db, workerId, limit * batch, deps.clock.now());
        return Array.from({ length: Math.ceil(jobs.length / batch) }, (_, i) => jobs.slice(i * batch, (i + 1) * batch));
      },
      process: (jobs, session) => sendTextJobs(deps, jobs, session.workerId),
      release: (workerId, batches) => releaseTextJobs(deps.db, workerId, batches.flat().map((j) => j.id)),
      // The job's claim stays: the sweep hands it back after the lease, when no message was
      // written for it (a written message is never sent twice).
      fail: async () => {},
      sweep: {
        everyMs: options.sweepMs ?? SWEEP_EVERY_MS,
        run: async () => {
          const now = deps.clock.now().getTime();
          return (await reclaimStaleTextJobs(deps.db, new Date(now - leaseMs))) + (await failLostSends(deps.db, new Date(now - lostAfterMs)));
        },
        message: 'text sender sweep',
      },
    },
  });
}

/** One round by hand (tests, benchmarks): claims up to `limit` due jobs and sends them in batches of `batch`, `parallel` at a time. */
export async function runTextRound(deps: Deps, options: { workerId?: string; limit?: number; batch?: number; parallel?: number } = {}): Promise<number> {
  const workerId = options.workerId ?? defaultWorkerId('text-round');
  const jobs = await claimDueTextJobs(deps.db, workerId, options.limit ?? 100, deps.clock.now());
  const size = Math.max(1, options.batch ?? BATCH);
  const batches = Array.from({ length: Math.ceil(jobs.length / size) }, (_, i) => jobs.slice(i * size, (i + 1) * size));
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.parallel ?? 1), batches.length) }, async () => {
    while (next < batches.length) await sendTextJobs(deps, batches[next++]!, workerId);
  }));
  return jobs.length;
}
