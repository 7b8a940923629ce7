import type { Logger } from 'pino';
import { createClaimWorker, defaultWorkerId, UNFINISHED, type ClaimWorker, type JobSession } from '../../claim-worker.ts';
import type { Db } from '../../db/connection.ts';
import { applyChunk, claimTask, loadChunk, releaseTask, sweepStuckTasks, type ClaimedTask } from './import-claims.ts';
import { prepareChunk, type PreparedChunk } from './import-rows.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { DueWake } from '../contact-lifecycle/queueing.ts';

export interface ImportWorkerOptions {
  /** Identifies this worker in task leases; unique per process by default. */
  workerId?: string;
  /** Idle wait between looks for new tasks. */
  pollMs?: number;
  /** A lease not renewed for this long is taken over by another worker (its holder crashed). */
  leaseMs?: number;
  /** An upload that sent no data for this long is ended as failed by the sweeper. */
  stuckAfterMs?: number;
  sweepEveryMs?: number;
}

export interface ImportWorkerDeps {
  db: Db;
  config: { DEFAULT_COUNTRY: string };
  metrics?: Pick<Metrics, 'importRows'>;
  /** This process's dialer, woken when imported contacts are queued (none in a process that runs only imports). */
  dialerWake?: DueWake;
  /** A failed task is logged here (a child named after the worker) and the loop goes on. */
  log: Logger;
}

/**
 * The contact import worker, a claim-worker (src/claim-worker.ts) of one slot: claims one open
 * task at a time (SKIP LOCKED + lease), applies its chunks in order, and sweeps stuck tasks.
 * While one chunk commits, the next one is loaded and its phones normalised, so the CPU work
 * overlaps the database's. Each chunk's commit renews the lease.
 */
export function createImportWorker(deps: ImportWorkerDeps, options: ImportWorkerOptions = {}): ClaimWorker {
  const workerId = options.workerId ?? defaultWorkerId('imports');
  const leaseMs = options.leaseMs ?? 60_000;
  const stuckAfterMs = options.stuckAfterMs ?? 15 * 60_000;
  const { db } = deps;
  const country = deps.config.DEFAULT_COUNTRY;

  async function prepare(task: ClaimedTask, seq: number): Promise<PreparedChunk | null> {
    if (seq >= task.chunk_count) return null;
    const chunk = await loadChunk(db, task.id, seq);
    if (!chunk) throw new Error(`import task ${task.id}: chunk ${seq} is missing`);
    return prepareChunk(chunk, country);
  }

  async function runTask(task: ClaimedTask, session: JobSession): Promise<void | typeof UNFINISHED> {
    let next = await prepare(task, task.next_chunk);
    while (next && !session.stopped) {
      const commit = applyChunk(db, { taskId: task.id, workerId, chunk: next, dialerWake: deps.dialerWake });
      // Load and prepare the following chunk while this one commits; a failed load
      // is retried after the commit settles.
      const following = prepare(task, next.seq + 1).catch(() => undefined);
      let result: Awaited<typeof commit>;
      try {
        result = await commit;
      } catch (error) {
        await following;
        throw error;
      }
      if (result.applied) deps.metrics?.importRows.inc(next.rowCount);
      if (!result.applied || result.done) {
        await following;
        return;
      }
      const prepared = await following;
      next = prepared === undefined ? await prepare(task, next.seq + 1) : prepared;
    }
    // Stopped mid-task: hand the rest to whoever claims it next.
    if (next) return UNFINISHED;
  }

  return createClaimWorker<ClaimedTask>({
    name: 'imports',
    log: deps.log.child({ worker: 'imports' }),
    workerId,
    tickMs: options.pollMs ?? 250,
    messages: { failure: 'import round failed' },
    source: {
      claim: async (id) => {
        const task = await claimTask(db, id, leaseMs);
        return task ? [task] : [];
      },
      process: runTask,
      release: async (id, claimed) => {
        for (const task of claimed) await releaseTask(db, task.id, id);
      },
      // The lease is kept: the task is retried when it runs out, and each claim without a
      // committed chunk counts toward MAX_STALLED_CLAIMS. Released at once, a task that fails
      // every time would use up its claims within a second.
      fail: async () => {},
      sweep: {
        everyMs: options.sweepEveryMs ?? Math.min(60_000, stuckAfterMs),
        run: async () => (await sweepStuckTasks(db, stuckAfterMs, leaseMs)).length,
      },
    },
  });
}
