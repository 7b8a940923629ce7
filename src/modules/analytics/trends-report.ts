import { sql, type RawBuilder } from 'kysely';
import { readRollupFirst } from './rollup-compaction.ts';
import { campaignsVisible, checkCampaign, checks, partRows, partsAndRanges, periodParts, rollupOnlyParts, type Checks, type PartsInput, type PeriodParts } from './period-sources.ts';
import { METRIC_SQL, scopedCalls } from './analytics.repository.ts';
import type { Granularity, Metric, TrendsResponseT } from './analytics.schemas.ts';
import { bucketBounds, defaultGranularity, resolveScope, type ScopeInput, cents } from './analytics.service.ts';

const WEEK = 7 * 86_400_000;

interface TrendResult extends Checks {
  /** [bucket number (1-based), metric] for buckets with any row. */
  values: [number, number][] | null;
}

const ROLLUP_COLUMN: Record<Metric, string> = { calls: 'calls', successful: 'successful', cost: 'cost', duration: 'duration' };

/**
 * The metric of every bucket in ONE statement: each bucket is a period of period-sources.ts,
 * so its whole UTC months and days are rollup rows and the rest one aggregate over an index
 * range of the calls (no hash table, and the planner knows each range). Buckets at local
 * midnight in a zone off UTC, and hour buckets, hold no whole UTC day and are read from the calls.
 */
function trendStatement(input: PartsInput & { metric: Metric; form: 'mixed' | 'rollup' }): RawBuilder<{ r: TrendResult }> {
  const account = input.scope.principal.kind === 'user' && input.scope.campaignId === undefined;
  // The rollup-only form (see rollupOnlyParts) has no ranges to read from the calls.
  const mixed = input.form === 'mixed';
  const perRange = () =>
    scopedCalls(input.db, input.scope, { range: false })
      .where('calls.start_time', '>=', sql<Date>`r.lo`)
      .where('calls.start_time', '<', sql<Date>`r.hi`)
      .select(METRIC_SQL[input.metric].as('v'));
  return sql<{ r: TrendResult }>`
WITH visible AS (${campaignsVisible(input)}),
${mixed ? partsAndRanges(input) : rollupOnlyParts(input)},
rolled AS (${partRows(input, 'analytics_rollup', sql.raw(`t.${ROLLUP_COLUMN[input.metric]} AS v`), account)})
SELECT json_build_object(
  'values', (SELECT json_agg(json_build_array(p, v)) FROM (
    SELECT p, sum(v) AS v FROM (SELECT p, v FROM rolled ${mixed ? sql`UNION ALL SELECT r.p, (${perRange()}) FROM ranges r` : sql``}) u GROUP BY p) x),
  ${checks(input)}
) AS r`;
}

/**
 * Buckets read mostly from the calls (hours, days off UTC) are split in two statements run at
 * once: PostgreSQL runs them on two connections, as the plain SELECT they are measured against
 * uses parallel workers. Buckets read from the rollup stay one statement: one round trip.
 */
function groupsOf(periods: PeriodParts[]): PeriodParts[][] {
  const raw = periods.reduce((sum, p) => sum + p.edges.reduce((s, [lo, hi]) => s + hi.getTime() - lo.getTime(), 0), 0);
  if (periods.length < 2 || raw <= WEEK) return [periods];
  const half = Math.ceil(periods.length / 2);
  return [periods.slice(0, half), periods.slice(half)];
}

export async function trendsAnalytics(input: ScopeInput & { metric: Metric; granularity?: Granularity | undefined }): Promise<TrendsResponseT> {
  const { scope, timeZone } = resolveScope(input);
  const granularity = input.granularity ?? defaultGranularity(scope.start, scope.end);
  const bounds = bucketBounds(scope.start, scope.end, granularity, timeZone);
  const starts = bounds.slice(0, -1);
  const ends = bounds.slice(1);
  // Each bucket counts only its part inside the period.
  const periods = starts.map((start, i) =>
    periodParts(new Date(Math.max(start.getTime(), scope.start.getTime())), new Date(Math.min(ends[i]!.getTime(), scope.end.getTime()))),
  );
  const groups = groupsOf(periods);
  const results = await Promise.all(
    groups.map((group) => {
      const parts = { db: input.reports.db, scope, periods: group, unusableDays: [], metric: input.metric };
      return readRollupFirst(input.reports, parts, (form) => trendStatement({ ...parts, form }), scope.principal.ownerId);
    }),
  );
  checkCampaign(scope, results[0]!);
  const values = new Array<number>(starts.length).fill(0);
  let offset = 0;
  results.forEach((result, g) => {
    for (const [p, v] of result.values ?? []) values[offset + p - 1] = Number(v);
    offset += groups[g]!.length;
  });
  return {
    metric: input.metric,
    granularity,
    timezone: timeZone,
    period: { start: scope.start, end: scope.end, timezone: timeZone },
    // Cost sums to the cent; counts and seconds are whole already.
    buckets: starts.map((start, i) => ({ start, end: ends[i]!, value: cents(values[i]!) })),
    total: cents(values.reduce((a, b) => a + b, 0)),
  };
}
