import { createHash } from 'node:crypto';
import { sql, type Expression, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle, Db } from '../../db/connection.ts';
import type { Principal } from '../auth/principal.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import { SUCCESS_ACTION_STATUSES, type CallTypeFilter, type Metric } from './analytics.schemas.ts';

/** Which calls a figure is computed over; the period is half-open [start, end). */
export interface CallScope {
  principal: Principal;
  start: Date;
  end: Date;
  campaignId?: number | undefined;
  callTypes?: CallTypeFilter[] | undefined;
}

const SUCCESSFUL = sql<boolean>`(status = 'finished' AND action_status IN (${sql.join(SUCCESS_ACTION_STATUSES.map((s) => sql.lit(s)))}))`;

export const METRIC_SQL: Record<Metric, RawBuilder<number>> = {
  calls: sql<number>`count(*)`,
  cost: sql<number>`coalesce(sum(cost), 0)`,
  duration: sql<number>`coalesce(sum(call_duration), 0)`,
  successful: sql<number>`count(*) FILTER (WHERE ${SUCCESSFUL})`,
};

/** The call types filter on a column (null: every call); `none` stands for a null call type. */
export function typesCondition(types: CallTypeFilter[] | undefined): ((column: Expression<unknown>) => RawBuilder<boolean>) | null {
  if (!types || types.length === 0) return null;
  const named = types.filter((t) => t !== 'none');
  const withNull = types.includes('none');
  return (column) => {
    const parts = [...(named.length > 0 ? [sql`${column} IN (${sql.join(named)})`] : []), ...(withNull ? [sql`${column} IS NULL`] : [])];
    return sql<boolean>`(${sql.join(parts, sql` OR `)})`;
  };
}

/**
 * The calls of the scope, through the one tenancy rule. Every analytics query starts here,
 * so no figure can include another account's or an ungranted campaign's calls.
 */
export function scopedCalls(db: Db, scope: CallScope, options: { range: boolean } = { range: true }) {
  let query = db.selectFrom('calls').where(campaignVisibleTo(scope.principal, 'calls.campaign_id', 'calls.owner_id'));
  if (options.range) query = query.where('calls.start_time', '>=', scope.start).where('calls.start_time', '<', scope.end);
  if (scope.campaignId !== undefined) query = query.where('calls.campaign_id', '=', scope.campaignId);
  const types = typesCondition(scope.callTypes);
  if (types) query = query.where(types(sql.ref('calls.call_type')));
  return query;
}

// A memo of a pure function of the statement text (the name is its hash), so one map may serve
// every database and app of the process: it holds no connection and no state of any of them.
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `vc_an_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (statementNames.size < 256) statementNames.set(text, name);
  }
  return name;
}

/** Runs the report statements of one database; its connections are ended by close(). */
export interface ReportRunner {
  /**
   * Runs a report statement: on PostgreSQL as a named prepared statement on the report pool;
   * on the embedded database (one shared session, no JIT) through Kysely.
   */
  query<T>(statement: RawBuilder<T>): Promise<T[]>;
  /** Ends the report pool; a later query opens a new one. */
  close(): Promise<void>;
}

/**
 * On PostgreSQL the report statements run on a few connections of their own, set up for them:
 * - jit off: the statement's estimated cost (CTEs over rollup tables, estimated loosely)
 *   crosses jit_above_cost, and compiling its ~180 expressions took 137 ms of a 24 ms query;
 * - plan_cache_mode force_generic_plan: each statement is planned once per connection (3.7 ms)
 *   instead of on each of its first five runs; its joins are forced (LATERAL ... OFFSET 0);
 * - enable_seqscan off: every read of these statements is an index lookup by design, and a
 *   plan made while the rollup tables were empty (before the first compaction) chose
 *   sequential scans that then ran once per month of the period: 1.8 s instead of 10 ms.
 * - statement_timeout REPORT_STATEMENT_TIMEOUT_MS: a report reads long periods, so it has a
 *   limit of its own, longer than the API's.
 * Session settings on the shared pool would change every other module's queries. The pool is
 * opened by the first report, so a process that serves none holds no extra connection.
 */
export function createReportRunner(database: DatabaseHandle, statementTimeoutMs: number): ReportRunner {
  let pool: pg.Pool | null = null;
  const settings = { jit: 'off', plan_cache_mode: 'force_generic_plan', enable_seqscan: 'off', statement_timeout: String(statementTimeoutMs) };
  const reportPool = (): pg.Pool => (pool ??= database.sessionPool(settings, 4)!);

  return {
    async query<T>(query: RawBuilder<T>): Promise<T[]> {
      const compiled = query.compile(database.db);
      if (database.kind !== 'postgres') return (await database.db.executeQuery(compiled)).rows;
      const result = await reportPool().query({ name: statementName(compiled.sql), text: compiled.sql, values: compiled.parameters as unknown[] });
      return result.rows as T[];
    },
    async close() {
      const ending = pool;
      pool = null;
      await ending?.end();
    },
  };
}

export type Dimension = 'total' | 'campaign' | 'status' | 'action_status' | 'call_type';

export interface BreakdownRow {
  dim: Dimension;
  campaign_id: number | null;
  status: string | null;
  action_status: string | null;
  call_type: string | null;
  calls: number;
  answered: number;
  finished: number;
  successful: number;
  total_duration: number;
  total_cost: number;
}

/**
 * Totals and the breakdowns by campaign, status, action status and call type from one scan:
 * the scan groups by the finest key (campaign, status, action status, call type), a few
 * thousand groups at most, and GROUPING SETS rolls that small set up into each breakdown.
 * Measured on a month of 2,000,000 calls (170k rows): GROUPING SETS straight over the scan
 * took 1,006 ms, this two-step form 261 ms. Adding the hour of day to the key made the hash
 * table 15 times larger (43k groups, 567 ms), so hours are a separate statement run beside this one.
 */
export async function breakdownsOf(db: Db, scope: CallScope): Promise<BreakdownRow[]> {
  const fine = scopedCalls(db, scope)
    .select([
      'calls.campaign_id',
      'calls.status',
      'calls.action_status',
      'calls.call_type',
      sql<number>`count(*)`.as('calls'),
      sql<number>`count(*) FILTER (WHERE call_duration > 0)`.as('answered'),
      METRIC_SQL.duration.as('total_duration'),
      METRIC_SQL.cost.as('total_cost'),
    ])
    .groupBy(['calls.campaign_id', 'calls.status', 'calls.action_status', 'calls.call_type']);
  const rows = await db
    .selectFrom(fine.as('f'))
    .select([
      sql<Dimension>`CASE
        WHEN GROUPING(campaign_id) = 0 THEN 'campaign'
        WHEN GROUPING(status) = 0 THEN 'status'
        WHEN GROUPING(action_status) = 0 THEN 'action_status'
        WHEN GROUPING(call_type) = 0 THEN 'call_type'
        ELSE 'total' END`.as('dim'),
      'campaign_id',
      'status',
      'action_status',
      'call_type',
      sql<number>`sum(calls)`.as('calls'),
      sql<number>`sum(answered)`.as('answered'),
      sql<number>`coalesce(sum(calls) FILTER (WHERE status = 'finished'), 0)`.as('finished'),
      sql<number>`coalesce(sum(calls) FILTER (WHERE ${SUCCESSFUL}), 0)`.as('successful'),
      sql<number>`sum(total_duration)`.as('total_duration'),
      sql<number>`sum(total_cost)`.as('total_cost'),
    ])
    .groupBy(sql`GROUPING SETS ((), (campaign_id), (status), (action_status), (call_type))`)
    .execute();
  return rows as BreakdownRow[];
}

/** Calls and successful calls per local hour of day (0-23, from `localHour`); hours without calls are absent. */
export async function byHourOf(db: Db, scope: CallScope, localHour: RawBuilder<number>): Promise<{ hour: number; calls: number; successful: number }[]> {
  return scopedCalls(db, scope)
    .select([localHour.as('hour'), sql<number>`count(*)`.as('calls'), METRIC_SQL.successful.as('successful')])
    .groupBy(sql`1`)
    .execute();
}
