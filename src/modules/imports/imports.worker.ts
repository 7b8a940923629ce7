import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createBackgroundLoop, type LoopSession } from '../../background-loop.ts';
import type { Db } from '../../db/connection.ts';
import type { BackgroundWorker } from '../../workers.ts';
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
  /** A failed round is logged here (a child named after the worker) and the loop goes on. */
  log: Logger;
}

/**
 * The import loop: claims one open task at a time (SKIP LOCKED + lease), applies its
 * chunks in order, and sweeps stuck tasks. While one chunk commits, the next one is
 * loaded and its phones normalised, so the CPU work overlaps the database's.
 */
export function createImportWorker(deps: ImportWorkerDeps, options: ImportWorkerOptions = {}): BackgroundWorker {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const pollMs = options.pollMs ?? 250;
  const leaseMs = options.leaseMs ?? 60_000;
  const stuckAfterMs = options.stuckAfterMs ?? 15 * 60_000;
  const sweepEveryMs = options.sweepEveryMs ?? Math.min(60_000, stuckAfterMs);
  const { db } = deps;
  const country = deps.config.DEFAULT_COUNTRY;

  let lastSweep = 0;

  async function prepare(task: ClaimedTask, seq: number): Promise<PreparedChunk | null> {
    if (seq >= task.chunk_count) return null;
    const chunk = await loadChunk(db, task.id, seq);
    if (!chunk) throw new Error(`import task ${task.id}: chunk ${seq} is missing`);
    return prepareChunk(chunk, country);
  }

  async function runTask(task: ClaimedTask, session: LoopSession) {
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
    if (next) await releaseTask(db, task.id, workerId);
  }

  /** Sweeps when due and works through one task; true when it found one (look again at once). */
  async function round(session: LoopSession): Promise<boolean> {
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      await sweepStuckTasks(db, stuckAfterMs, leaseMs);
    }
    const task = await claimTask(db, workerId, leaseMs);
    if (!task) return false;
    await runTask(task, session);
    return true;
  }

  return createBackgroundLoop({
    name: 'imports',
    log: deps.log.child({ worker: 'imports' }),
    tickMs: pollMs,
    failure: { message: 'import round failed' },
    round,
  });
}
