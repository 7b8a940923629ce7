import { setTimeout as delay } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import pino from 'pino';
import type { DatabaseHandle, Db } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import type { BackgroundWorker } from '../../workers.ts';
import { queryPrepared } from './analytics.repository.ts';
import { rollupOnlyFits, type Checks, type PartsInput } from './analytics.parts.ts';

/**
 * Folding dirty days into the rollup (analytics_compact() of migration 0006_analytics_speed).
 * Until a day is folded the reports read it from the calls, so compaction only decides how
 * much of a report is precomputed, never whether it is right.
 *
 * It runs (1) from the background worker below, (2) right after a report that found marks of
 * its owner (fire and forget, one at a time per process), and (3) before a report whose periods
 * hold more than SYNC_DIRTY_DAYS dirty days: a backlog (a bulk load, or the worker not
 * running) is cheaper to fold once than to read raw on every request.
 */
export const SYNC_DIRTY_DAYS = 2;
const BACKGROUND_MIN_INTERVAL_MS = 2_000;

/**
 * Recomputes the marked days of one owner (or all owners) and their months. `wait: false`
 * returns -1 at once when another compaction is running instead of queueing behind it.
 */
export async function compactAnalytics(db: Db, options: { ownerId?: number; wait?: boolean } = {}): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT analytics_compact(${options.ownerId ?? null}::bigint, ${options.wait ?? true}) AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const inFlight = new WeakMap<Db, { running: boolean; last: number }>();

/** Starts a compaction in the background unless one runs in this process or ran moments ago. */
export function compactSoon(db: Db): void {
  const state = inFlight.get(db) ?? { running: false, last: 0 };
  inFlight.set(db, state);
  if (state.running || Date.now() - state.last < BACKGROUND_MIN_INTERVAL_MS) return;
  state.running = true;
  state.last = Date.now();
  compactAnalytics(db, { wait: false })
    .catch(() => {}) // Nothing depends on it: the next report or the worker tries again.
    .finally(() => (state.running = false));
}

/** A report statement's answer; a backlog of dirty days in its periods is folded first. */
export async function readReport<T extends Checks>(database: DatabaseHandle, statement: RawBuilder<{ r: T }>, ownerId: number): Promise<T> {
  const run = async () => (await queryPrepared(database, statement))[0]!.r;
  const result = await run();
  if (result.dirty > SYNC_DIRTY_DAYS) {
    try {
      await compactAnalytics(database.db, { ownerId });
    } catch {
      // The first answer is exact already (marked days were read from the calls); folding is only for speed.
      return result;
    }
    return run();
  }
  // Marks of days outside the periods too (today's calls are an edge, read raw anyway): every
  // report reads the unindexed mark table, so it must stay small.
  if (result.marks > 0) compactSoon(database.db);
  return result;
}

/**
 * A report built by `statement` in either form (see rollupOnlyParts): where the periods fit,
 * the rollup-only form first, whose answer stands when no day of its periods was dirty in its
 * snapshot; otherwise the mixed form, through readReport.
 */
export async function readRollupFirst<T extends Checks>(
  database: DatabaseHandle,
  parts: Pick<PartsInput, 'periods' | 'unusableDays'>,
  statement: (form: 'mixed' | 'rollup') => RawBuilder<{ r: T }>,
  ownerId: number,
): Promise<T> {
  if (rollupOnlyFits(parts)) {
    const result = (await queryPrepared(database, statement('rollup')))[0]!.r;
    if (Number(result.dirty) === 0) {
      if (result.marks > 0) compactSoon(database.db);
      return result;
    }
  }
  return readReport(database, statement('mixed'), ownerId);
}

/**
 * Folds dirty days every `intervalMs`. Register it in src/workers.ts so the marks written by
 * call inserts and updates are folded even when nobody asks for a report (each call
 * statement appends one mark row until then).
 */
export function createAnalyticsWorker(deps: Deps, options: { intervalMs?: number } = {}): BackgroundWorker {
  const log = pino({ level: deps.config.LOG_LEVEL, name: 'analytics' });
  const intervalMs = options.intervalMs ?? 5_000;
  let stopped = true;
  let loop: Promise<void> | null = null;
  let stop = new AbortController();
  return {
    name: 'analytics',
    start() {
      if (!stopped) return;
      stopped = false;
      stop = new AbortController(); // a worker stopped and started again must sleep again
      loop = (async () => {
        while (!stopped) {
          try {
            await compactAnalytics(deps.db, { wait: false });
          } catch (error) {
            log.warn({ err: error }, 'analytics compaction failed; retrying');
          }
          await delay(intervalMs, undefined, { signal: stop.signal }).catch(() => {});
        }
      })();
    },
    async stop() {
      stopped = true;
      stop.abort();
      await loop;
    },
  };
}
