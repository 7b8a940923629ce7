import { sql, type SelectQueryBuilder } from 'kysely';
import { HttpError } from '../http/errors.ts';
import type { Db } from './connection.ts';

/**
 * Tools of the API's lists at millions of rows (docs/scale.md):
 * - every query of one list request runs on one connection under a statement timeout, so a
 *   runaway filter is stopped with a 503 that names it instead of holding connections;
 * - a count is exact up to EXACT_COUNT_UP_TO matches and past that the planner's estimate,
 *   so a count never reads more than that many rows.
 */

/** A count that reads at most this many rows; past it the answer is an estimate. */
export const EXACT_COUNT_UP_TO = 1000;

/** SQLSTATE of a statement stopped by statement_timeout. */
const QUERY_CANCELED = '57014';

export interface ListCount {
  count: number;
  /** false when count is the planner's estimate (more than the rows boundedCount counts exactly). */
  exact: boolean;
}

/**
 * Runs `read` in one transaction whose statements stop after `timeoutMs`; a stopped one
 * becomes 503 naming the list and the filters the request used (PostgreSQL; the embedded
 * database has no timer to stop a statement, and serves one small account).
 */
export async function withStatementTimeout<T>(
  db: Db,
  args: { timeoutMs: number; list: string; filters: string[] },
  read: (trx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('statement_timeout', ${String(args.timeoutMs)}, true)`.execute(trx);
      return read(trx);
    });
  } catch (error) {
    if ((error as { code?: string }).code !== QUERY_CANCELED) throw error;
    const which = args.filters.length > 0 ? `with the filters ${args.filters.join(', ')}` : 'without filters';
    throw new HttpError(
      503,
      `The ${args.list} list ${which} took longer than ${args.timeoutMs} ms and was stopped; narrow the filters (a campaign, a time range) and retry`,
      { 'retry-after': '1' },
    );
  }
}

/**
 * The number of rows `matching` selects: counted exactly while at most `upTo` (default
 * EXACT_COUNT_UP_TO), else the planner's estimate of it (never below the rows already counted).
 * A larger `upTo` suits a list whose rows are read through a narrow index (one campaign's contacts).
 */
export async function boundedCount(db: Db, matching: SelectQueryBuilder<any, any, any>, upTo = EXACT_COUNT_UP_TO): Promise<ListCount> {
  const probe = matching.clearSelect().select(sql`1`.as('one')).limit(upTo + 1);
  const { n } = await db
    .selectFrom(probe.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const counted = Number(n);
  if (counted <= upTo) return { count: counted, exact: true };
  return { count: Math.max(counted, await plannedRows(db, matching.clearSelect().select(sql`1`.as('one')))), exact: false };
}

/** The planner's estimate of the rows a query returns (EXPLAIN, which runs nothing). */
async function plannedRows(db: Db, query: SelectQueryBuilder<any, any, any>): Promise<number> {
  const compiled = query.compile();
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>({
    ...compiled,
    sql: `EXPLAIN (FORMAT JSON) ${compiled.sql}`,
  });
  const raw = rows[0]!['QUERY PLAN'];
  const plan = typeof raw === 'string' ? (JSON.parse(raw) as [{ Plan: { 'Plan Rows': number } }]) : raw;
  return Math.round(plan[0].Plan['Plan Rows']);
}
