import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { createBackgroundLoop, type BackgroundLoopOptions } from './background-loop.ts';
import type { Db } from './db/connection.ts';
import type { BackgroundWorker } from './workers.ts';

/**
 * The one worker shape for jobs kept as database rows (contact imports, suppression imports,
 * webhook deliveries): claim, process, complete, release, sweep, on top of a background loop.
 * A job source says what each step means for its rows; this file owns the mechanics they
 * share: the worker id, the slots and the queue of claimed jobs, the pacing hooks, batched
 * completion, the sweep's timing, handing jobs back on stop, and logging failures.
 *
 * Leases are renewed by the sources in the commit that moves a job forward, never by a timer
 * here: a timer would keep the lease of a job whose process hangs, and nobody would take it over.
 */

/** Returned by process() for a job stopped part-way (stop() was called): it is released, not completed. */
export const UNFINISHED: unique symbol = Symbol('unfinished');
export type Unfinished = typeof UNFINISHED;

export interface JobSession {
  /** Written into every claim and lease; completions and releases are guarded by it. */
  readonly workerId: string;
  /** Set once stop() is called: a long job stops at its next safe point and returns UNFINISHED. */
  readonly stopped: boolean;
}

export interface JobSource<Job, Outcome = void> {
  /** Claims up to `limit` due jobs for `workerId` (SKIP LOCKED and/or an expired lease). */
  claim(workerId: string, limit: number): Promise<Job[]>;
  process(job: Job, session: JobSession): Promise<Outcome | Unfinished>;
  /**
   * Records outcomes. Called once per event-loop turn with every outcome of that turn, so a
   * burst of finished jobs costs one statement. Retried; a source without it completes its
   * jobs inside process().
   */
  complete?(workerId: string, outcomes: Outcome[]): Promise<void>;
  /** Hands jobs back (claimed but not started, or UNFINISHED) so another process takes them at once. Retried. */
  release(workerId: string, jobs: Job[]): Promise<void>;
  /**
   * A process() that threw (already logged). Required, because what is safe differs: a job whose
   * effect may have happened (a webhook sent) must not be handed out again; an import keeps its
   * lease so it is retried only after it runs out.
   */
  fail(workerId: string, job: Job, error: unknown): Promise<void>;
  /** Periodic repair of what crashed processes left (stale leases, stuck tasks); returns how many rows it changed. */
  sweep?: { everyMs: number; run(): Promise<number | void>; message?: string };
}

export interface PacingState {
  /** Claimed jobs waiting for a free slot. */
  queued: number;
  inFlight: number;
  concurrency: number;
}

export interface ClaimPacing {
  /** How many jobs a round claims; 0 claims none. */
  claimLimit(state: PacingState): number;
  /** A job finished (`starved`: its slot found the queue empty). True wakes the loop for a round. */
  finished(state: PacingState & { starved: boolean }): boolean;
}

/** Claim only what the free slots take, and look again whenever a job ends. */
const FILL_FREE_SLOTS: ClaimPacing = {
  claimLimit: ({ queued, inFlight, concurrency }) => Math.max(0, concurrency - inFlight - queued),
  finished: () => true,
};

export interface ClaimWorkerOptions<Job, Outcome> {
  name: string;
  log: Logger;
  source: JobSource<Job, Outcome>;
  /** Unique per process by default. */
  workerId?: string;
  /** The sleep between rounds when nothing woke the loop. */
  tickMs: number;
  /** Jobs processed at once by this process (default 1). */
  concurrency?: number;
  pacing?: ClaimPacing;
  /** NOTIFY channel (PostgreSQL) that announces new jobs from other processes. */
  listen?: BackgroundLoopOptions['listen'];
  /** In-process wake-ups (see createJobWakes). */
  wakeOn?: BackgroundLoopOptions['wakeOn'];
  /** Log lines for a failed round or job, and for a failed completion write. */
  messages?: { failure?: string; complete?: string };
  /** Called by start() before the first round (e.g. opens what process() uses). */
  onStart?: () => void;
  /** Called by stop() once every job has ended and every outcome is written. */
  onStopped?: () => Promise<void>;
}

export interface ClaimWorker extends BackgroundWorker {
  /** Runs a round now (new jobs were stored in this process). */
  wake(): void;
}

export const defaultWorkerId = (name: string) => `${name}:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Completion and release writes are idempotent (guarded by the claimer and the status), so a
 * transient database error is retried rather than leaving a job to the sweeper.
 */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (error) {
      if (i >= attempts) throw error;
      await delay(50 * i);
    }
  }
}

/** Everything of one start(): a restarted worker never shares a queue or a flag with the run still stopping. */
interface Run<Job> extends JobSession {
  stopped: boolean;
  queue: Job[];
  inFlight: Set<Promise<void>>;
  lastSweep: number;
}

export function createClaimWorker<Job, Outcome = void>(options: ClaimWorkerOptions<Job, Outcome>): ClaimWorker {
  const { name, log, source } = options;
  const workerId = options.workerId ?? defaultWorkerId(name);
  const concurrency = options.concurrency ?? 1;
  const pacing = options.pacing ?? FILL_FREE_SLOTS;
  const failure = options.messages?.failure ?? `${name} round failed`;
  const completeFailure = options.messages?.complete ?? `${name}: recording results failed; the sweeper ends these jobs`;
  let current: Run<Job> | null = null;
  let stopping: Promise<void> = Promise.resolve();

  // Outcomes are gathered for one event-loop turn and written together, one write at a time.
  let buffer: Outcome[] = [];
  let scheduled: Promise<void> | null = null;
  let chain: Promise<void> = Promise.resolve();
  function complete(outcome: Outcome): Promise<void> {
    buffer.push(outcome);
    if (!scheduled) {
      const next: Promise<void> = chain
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(async () => {
          const batch = buffer;
          buffer = [];
          scheduled = null;
          await withRetry(() => source.complete!(workerId, batch));
        });
      scheduled = next;
      chain = next.catch((error: unknown) => log.error({ err: error }, completeFailure));
    }
    return scheduled;
  }

  async function release(jobs: Job[]) {
    if (jobs.length === 0) return;
    await withRetry(() => source.release(workerId, jobs)).catch((error: unknown) => log.error({ err: error }, `${name}: releasing jobs failed; their leases run out`));
  }

  /** Never rejects: a failure is logged and handed to the source. */
  async function work(run: Run<Job>, job: Job): Promise<void> {
    let outcome: Outcome | Unfinished;
    try {
      outcome = await source.process(job, run);
    } catch (error) {
      log.error({ err: error }, failure);
      await source.fail(workerId, job, error).catch((err: unknown) => log.error({ err }, `${name}: recording a failed job failed`));
      return;
    }
    if (outcome === UNFINISHED) await release([job]);
    // The slot frees once the job is done; its outcome joins the next batched write.
    else if (source.complete) void complete(outcome).catch(() => undefined);
  }

  const state = (run: Run<Job>): PacingState => ({ queued: run.queue.length, inFlight: run.inFlight.size, concurrency });

  function startOne(run: Run<Job>, job: Job) {
    const task = work(run, job);
    run.inFlight.add(task);
    void task.finally(() => {
      run.inFlight.delete(task);
      const starved = !run.stopped && run.queue.length === 0;
      // Refill the slot at once, without waiting for the loop's next turn (it may be mid-claim).
      if (!run.stopped && run.queue.length > 0) startOne(run, run.queue.shift()!);
      if (pacing.finished({ ...state(run), starved })) loop.wake();
    });
  }

  /** Sweep when due, claim what the pacing asks, fill the free slots. True: run again at once. */
  async function round(run: Run<Job>): Promise<boolean> {
    const sweep = source.sweep;
    if (sweep && Date.now() - run.lastSweep >= sweep.everyMs) {
      run.lastSweep = Date.now();
      const swept = await sweep.run();
      if (swept && sweep.message) log.warn({ swept }, sweep.message);
    }
    let claimed = 0;
    const limit = pacing.claimLimit(state(run));
    if (limit > 0) {
      const jobs = await source.claim(workerId, limit);
      run.queue.push(...jobs);
      claimed = jobs.length;
    }
    while (!run.stopped && run.inFlight.size < concurrency && run.queue.length > 0) startOne(run, run.queue.shift()!);
    // Nothing more to claim, or every slot busy: wait for a finished job (a wake-up) or the tick.
    return !(claimed === 0 || run.inFlight.size >= concurrency);
  }

  const loop = createBackgroundLoop({
    name,
    log,
    tickMs: options.tickMs,
    failure: { message: failure },
    round: () => (current ? round(current) : Promise.resolve(false)),
    ...(options.listen ? { listen: options.listen } : {}),
    ...(options.wakeOn ? { wakeOn: options.wakeOn } : {}),
  });

  return {
    name,
    wake: () => loop.wake(),
    start() {
      if (current) return;
      current = { workerId, stopped: false, queue: [], inFlight: new Set(), lastSweep: 0 };
      options.onStart?.();
      loop.start();
    },
    stop() {
      const run = current;
      if (!run) return stopping;
      current = null;
      run.stopped = true;
      stopping = (async () => {
        await loop.stop();
        await Promise.all(run.inFlight);
        // Claimed but never started: hand them back, nothing was done for them.
        await release(run.queue.splice(0));
        await chain;
        await options.onStopped?.();
      })();
      return stopping;
    },
  };
}

/**
 * In-process wake-ups by job kind: a request that stores a job wakes this process's worker at
 * once. One per Deps (depsFromDatabase), so two apps in one process never wake each other's.
 */
export interface JobWakes {
  wake(kind: string): void;
  /** Returns the unsubscribe (the shape ClaimWorkerOptions.wakeOn takes). */
  onWake(kind: string, listener: () => void): () => void;
  /** Whether a started worker of this process takes jobs of this kind. */
  listening(kind: string): boolean;
}

export function createJobWakes(): JobWakes {
  const wakeups = new EventEmitter();
  wakeups.setMaxListeners(0);
  return {
    wake: (kind) => void wakeups.emit(kind),
    onWake(kind, listener) {
      wakeups.on(kind, listener);
      return () => wakeups.off(kind, listener);
    },
    listening: (kind) => wakeups.listenerCount(kind) > 0,
  };
}

/**
 * Announces stored jobs: NOTIFY on `channel` reaches the workers of other processes (PostgreSQL),
 * and this process's worker is woken directly. Call it after the jobs' transaction committed,
 * so the worker's claim sees them.
 */
export async function announceJobs(db: Db, wakes: JobWakes, channel: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, '')`.execute(db);
  wakes.wake(channel);
}
