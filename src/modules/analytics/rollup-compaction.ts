import { sql, type RawBuilder } from 'kysely';
import { createBackgroundLoop } from '../../background-loop.ts';
import type { DatabaseHandle, Db } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import type { BackgroundWorker } from '../../workers.ts';
import { createReportRunner, type ReportRunner } from './analytics.repository.ts';
import { rollupOnlyFits, type Checks, type PartsInput } from './period-sources.ts';

/**
 * Folding dirty days into the rollup (analytics_compact() of migration 0006_analytics_speed).
 * Until a day is folded the reports read it from the calls, so compaction only decides how
 * much of a report is precomputed, never whether it is right.
 *
 * It runs (1) from the background worker below, (2) right after a report that found marks of
 * its owner (fire and forget, one at a time per set of Deps), and (3) before a report whose periods
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

/**
 * What the reports of one set of Deps keep between requests: their connections (see
 * createReportRunner) and whether a background compaction of theirs runs or ran moments ago.
 */
export interface AnalyticsReports {
  db: Db;
  runner: ReportRunner;
  /** Starts a compaction in the background unless one started here is running or started moments ago. */
  compactSoon(): void;
  /** Ends the report connections (a later report opens new ones). */
  close(): Promise<void>;
}

export function createAnalyticsReports(database: DatabaseHandle, statementTimeoutMs: number): AnalyticsReports {
  const runner = createReportRunner(database, statementTimeoutMs);
  let running = false;
  let last = 0;
  return {
    db: database.db,
    runner,
    compactSoon() {
      if (running || Date.now() - last < BACKGROUND_MIN_INTERVAL_MS) return;
      running = true;
      last = Date.now();
      compactAnalytics(database.db, { wait: false })
        .catch(() => {}) // Nothing depends on it: the next report or the worker tries again.
        .finally(() => (running = false));
    },
    close: () => runner.close(),
  };
}

/** A report statement's answer; a backlog of dirty days in its periods is folded first. */
export async function readReport<T extends Checks>(reports: AnalyticsReports, statement: RawBuilder<{ r: T }>, ownerId: number): Promise<T> {
  const run = async () => (await reports.runner.query(statement))[0]!.r;
  const result = await run();
  if (result.dirty > SYNC_DIRTY_DAYS) {
    try {
      await compactAnalytics(reports.db, { ownerId });
    } catch {
      // The first answer is exact already (marked days were read from the calls); folding is only for speed.
      return result;
    }
    return run();
  }
  // Marks of days outside the periods too (today's calls are an edge, read raw anyway): every
  // report reads the unindexed mark table, so it must stay small.
  if (result.marks > 0) reports.compactSoon();
  return result;
}

/**
 * A report built by `statement` in either form (see rollupOnlyParts): where the periods fit,
 * the rollup-only form first, whose answer stands when no day of its periods was dirty in its
 * snapshot; otherwise the mixed form, through readReport.
 */
export async function readRollupFirst<T extends Checks>(
  reports: AnalyticsReports,
  parts: Pick<PartsInput, 'periods' | 'unusableDays'>,
  statement: (form: 'mixed' | 'rollup') => RawBuilder<{ r: T }>,
  ownerId: number,
): Promise<T> {
  if (rollupOnlyFits(parts)) {
    const result = (await reports.runner.query(statement('rollup')))[0]!.r;
    if (Number(result.dirty) === 0) {
      if (result.marks > 0) reports.compactSoon();
      return result;
    }
  }
  return readReport(reports, statement('mixed'), ownerId);
}

/**
 * Folds dirty days every `intervalMs`. Register it in src/workers.ts so the marks written by
 * call inserts and updates are folded even when nobody asks for a report (each call
 * statement appends one mark row until then).
 */
export function createAnalyticsWorker(deps: Deps, options: { intervalMs?: number } = {}): BackgroundWorker {
  return createBackgroundLoop({
    name: 'analytics',
    log: deps.log.child({ worker: 'analytics' }),
    tickMs: options.intervalMs ?? 5_000,
    failure: { level: 'warn', message: 'analytics compaction failed; retrying' },
    round: async () => {
      await compactAnalytics(deps.db, { wait: false });
    },
  });
}
