import { sql, type RawBuilder } from 'kysely';
import { COUNT_COLUMNS, COUNT_FILTERS, HOUR_COLUMNS, HOUR_SUCCESS_COLUMNS } from '../../db/migrations/0006_analytics_speed.ts';
import { campaignsVisible, checks, cols, partRows, partsAndRanges, rawCalls, rollupOnlyParts, type Checks, type PartsInput } from './period-sources.ts';
import { localHourSql, type OffsetSegments } from './zone-offsets.ts';

/**
 * The figures of /detailed in ONE statement (see period-sources.ts for where each day is read
 * from): totals and breakdowns of the period and the previous one, hours of day and distinct
 * contacts. One round trip, so a one-campaign report costs little more than the plain count/sum.
 */

/** Count columns of the totals and breakdowns; the hour columns are read separately. */
export const BASE_COLUMNS = COUNT_COLUMNS.filter((c) => !HOUR_COLUMNS.includes(c) && !HOUR_SUCCESS_COLUMNS.includes(c));
const HOURLY = [...HOUR_COLUMNS, ...HOUR_SUCCESS_COLUMNS];

export interface RollupInput extends PartsInput {
  /** Hours of day come from the rollup only when the zone keeps whole hours (else the caller reads them from calls). */
  zone: OffsetSegments;
  /** 'rollup': the rollup-only form (see rollupOnlyParts; exact only when the answer's `dirty` is 0). */
  form: 'mixed' | 'rollup';
}

/** [p, GROUPING(call_type) (1: all types), call_type, duration, cost, ...BASE_COLUMNS] */
export type TotalsTuple = [number, number, string | null, number, number, ...number[]];
/** [campaign_id, title, calls, successful, duration, cost] of period 1. */
export type CampaignRow = [number, string | null, number, number, number, number];
export interface RollupResult extends Checks {
  totals: TotalsTuple[] | null;
  campaigns: CampaignRow[] | null;
  /** Per offset segment (1-based, as width_bucket gives): 24 UTC-hour call counts then 24 successful counts. */
  hourSegments: [number, ...number[]][] | null;
  /** Per local hour, from the calls read raw: [hour, calls, successful]. */
  rawHours: [number, number, number][] | null;
  uniq: [number, number][] | null;
}

export function rollupStatement(input: RollupInput): RawBuilder<{ r: RollupResult }> {
  const { zone, scope } = input;
  // The whole account: totals, types, hours and contacts from the account rows.
  const account = scope.principal.kind === 'user' && scope.campaignId === undefined;
  const starts = zone.starts.map((s) => (s instanceof Date ? s.toISOString() : s));
  const hours = zone.wholeHours;
  const allColumns = sql`t.campaign_id, t.call_type, t.period, t.duration, t.cost, ${cols(COUNT_COLUMNS, (c) => `t.${c}`)}`;
  const rawCounts = cols(BASE_COLUMNS, (c) => `(count(*) FILTER (WHERE ${COUNT_FILTERS[c]}))::int AS ${c}`);
  // The raw half: the calls of the edges and dirty days, grouped like rollup rows.
  const mixed = input.form === 'mixed';
  const rawCtes = sql`
raw AS MATERIALIZED (SELECT r.p, c.* FROM ranges r CROSS JOIN LATERAL (${rawCalls(input)}) c),
raw_groups AS MATERIALIZED (
  SELECT p, campaign_id, call_type, coalesce(sum(call_duration), 0) AS duration, coalesce(sum(cost), 0) AS cost, ${rawCounts}
  FROM raw GROUP BY p, campaign_id, call_type),`;
  const rawTotals = mixed ? sql`UNION ALL SELECT p, call_type, duration, cost, ${cols(BASE_COLUMNS)} FROM raw_groups` : sql``;
  const rawCampaigns = mixed ? sql`UNION ALL SELECT p, campaign_id, calls, successful, duration, cost FROM raw_groups` : sql``;
  const rawBits = mixed ? sql`UNION ALL SELECT p, (contact_id >> 9)::int, bit_or(B'1'::bit(512) >> (contact_id & 511)::int) FROM raw GROUP BY 1, 2` : sql``;
  const rawHours = mixed
    ? sql`(SELECT json_agg(json_build_array(hour, calls, successful)) FROM (
    SELECT ${localHourSql(zone)} AS hour, count(*) AS calls, count(*) FILTER (WHERE ${sql.raw(COUNT_FILTERS.successful!)}) AS successful
    FROM raw WHERE p = 1 AND ${hours} GROUP BY 1) h)`
    : sql`NULL`;
  return sql<{ r: RollupResult }>`
WITH visible AS (${campaignsVisible(input)}),
${mixed ? partsAndRanges(input) : rollupOnlyParts(input)},
rolled AS MATERIALIZED (${partRows(input, 'analytics_rollup', account ? sql`t.campaign_id, t.calls, t.successful, t.duration, t.cost` : allColumns, false)}),
summed AS MATERIALIZED (${account ? partRows(input, 'analytics_rollup', allColumns, true) : sql`SELECT * FROM rolled`}),
${mixed ? rawCtes : sql``}
totals AS (
  -- Counts stay int4 until this one sum (int8): a sum of int8 is numeric, several times slower.
  SELECT p, GROUPING(call_type) AS g, call_type, sum(duration) AS duration, sum(cost) AS cost, ${cols(BASE_COLUMNS, (c) => `sum(${c}) AS ${c}`)}
  FROM (SELECT p, call_type, duration, cost, ${cols(BASE_COLUMNS)} FROM summed ${rawTotals}) u
  GROUP BY GROUPING SETS ((p), (p, call_type))),
by_campaign AS (
  SELECT campaign_id, sum(calls) AS calls, sum(successful) AS successful, sum(duration) AS duration, sum(cost) AS cost
  FROM (SELECT p, campaign_id, calls, successful, duration, cost FROM rolled ${rawCampaigns}) u
  WHERE p = 1 GROUP BY campaign_id),
bits AS (
  ${partRows(input, 'analytics_contacts', sql`t.chunk, t.bits`, account)}
  ${rawBits})
SELECT json_build_object(
  'totals', (SELECT json_agg(json_build_array(p, g, call_type, duration, cost, ${cols(BASE_COLUMNS)})) FROM totals WHERE p = 1 OR g = 1),
  'campaigns', (SELECT json_agg(json_build_array(c.campaign_id, v.title, c.calls, c.successful, c.duration, c.cost))
                FROM by_campaign c LEFT JOIN visible v ON v.id = c.campaign_id),
  'hourSegments', (SELECT json_agg(json_build_array(seg, ${cols(HOURLY)})) FROM (
    SELECT width_bucket(period::timestamp AT TIME ZONE 'UTC', ${starts}::timestamptz[]) AS seg, ${cols(HOURLY, (c) => `sum(${c}) AS ${c}`)}
    FROM summed WHERE p = 1 AND ${hours} GROUP BY 1) h),
  'rawHours', ${rawHours},
  'uniq', (SELECT json_agg(json_build_array(p, n)) FROM (
    SELECT p, sum(bit_count(b)) AS n FROM (SELECT p, chunk, bit_or(bits) AS b FROM bits GROUP BY p, chunk) x GROUP BY p) u),
  ${checks(input)}
) AS r`;
}
