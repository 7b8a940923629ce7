import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { notFound } from '../../http/errors.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import { scopedCalls, typesCondition, type CallScope } from './analytics.repository.ts';

/**
 * How a report splits its periods between the rollup tables of migration 0006_analytics_speed
 * and the calls. Whole UTC months and days come from precomputed rows; everything else (the
 * partial days at a period's edges, days still marked dirty, and any day the caller lists as
 * unusable) from the calls. Used inside ONE statement, so a day is read either from its fresh
 * rollup rows or from its calls in a single snapshot, never both or neither.
 */

const DAY = 86_400_000;

/** Where one period's figures come from, in UTC days (YYYY-MM-DD). */
export interface PeriodParts {
  start: Date;
  end: Date;
  /** Whole days [dayFrom, dayTo) inside the period (empty when dayFrom = dayTo). */
  dayFrom: string;
  dayTo: string;
  /** The whole months inside, and the whole days outside them. */
  months: string[];
  days: string[];
  /** Partial days at the edges, read from the calls. */
  edges: [Date, Date][];
}

// A trend by day splits ~30-400 buckets per request: formatting each day through Date and
// toISOString made this 4.5 µs a bucket (0.14 ms of a 1 ms one-campaign month); names are cached.
const dayNames = new Map<number, string>();
function isoDay(ms: number): string {
  const day = Math.floor(ms / DAY);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY).toISOString().slice(0, 10);
    if (dayNames.size < 50_000) dayNames.set(day, name);
  }
  return name;
}
function addMonths(ms: number, n: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
}
const daysOf = (from: number, to: number) => Array.from({ length: Math.max(0, (to - from) / DAY) }, (_, i) => isoDay(from + i * DAY));

export function periodParts(start: Date, end: Date): PeriodParts {
  const s = start.getTime();
  const e = end.getTime();
  const dayFrom = Math.ceil(s / DAY) * DAY;
  const dayTo = Math.floor(e / DAY) * DAY;
  if (dayFrom >= dayTo) return { start, end, dayFrom: isoDay(dayFrom), dayTo: isoDay(dayFrom), months: [], days: [], edges: s < e ? [[start, end]] : [] };
  const edges: [Date, Date][] = [];
  if (s < dayFrom) edges.push([start, new Date(dayFrom)]);
  if (dayTo < e) edges.push([new Date(dayTo), end]);
  const monthFrom = addMonths(dayFrom, 0) === dayFrom ? dayFrom : addMonths(dayFrom, 1);
  const monthTo = Math.max(monthFrom, addMonths(dayTo, 0));
  const months: string[] = [];
  for (let m = monthFrom; m < monthTo; m = addMonths(m, 1)) months.push(isoDay(m));
  const days = monthFrom < monthTo ? [...daysOf(dayFrom, monthFrom), ...daysOf(monthTo, dayTo)] : daysOf(dayFrom, dayTo);
  return { start, end, dayFrom: isoDay(dayFrom), dayTo: isoDay(dayTo), months, days, edges };
}

export interface PartsInput {
  db: Db;
  scope: CallScope;
  /** Numbered from 1 in the statement (p): a report's period and previous period, or the buckets of a trend. */
  periods: PeriodParts[];
  /** UTC days (YYYY-MM-DD) to read from the calls even when their rollup rows are fresh. */
  unusableDays: string[];
}

export const cols = (names: string[], wrap: (c: string) => string = (c) => c) => sql.raw(names.map(wrap).join(', '));
export const dates = (ds: Date[]) => ds.map((d) => d.toISOString());

export function campaignsVisible(input: PartsInput) {
  let query = input.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.title'])
    .where(campaignVisibleTo(input.scope.principal, 'campaigns.id', 'campaigns.owner_id'));
  if (input.scope.campaignId !== undefined) query = query.where('campaigns.id', '=', input.scope.campaignId);
  return query;
}

/**
 * The calls of one raw range `r` of the scope (tenancy, campaign and types through scopedCalls).
 * OFFSET 0 keeps it an index range scan per range: flattened, a generic plan scanned all 5,000
 * calls of a campaign against an empty list of ranges (1.8 ms of a 2.3 ms report).
 */
export function rawCalls(input: PartsInput) {
  return scopedCalls(input.db, input.scope, { range: false })
    .where('calls.start_time', '>=', sql<Date>`r.lo`)
    .where('calls.start_time', '<', sql<Date>`r.hi`)
    .select(['calls.campaign_id', 'calls.call_type', 'calls.contact_id', 'calls.status', 'calls.action_status', 'calls.cost', 'calls.call_duration', 'calls.start_time'])
    .offset(0);
}

/**
 * The rows of `table` for each part (a whole month or day of a period), as one index lookup
 * per part: joined plainly, the planner hashed every row of the owner (82,000 for a year) to
 * keep 600. An account's whole report reads the account rows (campaign_id 0); otherwise the
 * campaign rows pass the tenancy rule like calls do: they carry the calls' owner_id, the whole
 * rule for an account, and a sub-user's must be of a campaign in `visible` (campaignVisibleTo).
 */
export function partRows(input: PartsInput, table: 'analytics_rollup' | 'analytics_contacts', select: RawBuilder<unknown>, account: boolean) {
  const { scope } = input;
  const types = typesCondition(scope.callTypes);
  const filters = [
    account ? sql`AND t.campaign_id = 0` : sql`AND t.campaign_id > 0`,
    ...(scope.principal.kind === 'sub_user' ? [sql`AND t.campaign_id IN (SELECT id FROM visible)`] : []),
    ...(scope.campaignId !== undefined ? [sql`AND t.campaign_id = ${scope.campaignId}`] : []),
    ...(types ? [sql`AND ${types(sql.ref('t.call_type'))}`] : []),
  ];
  return sql`SELECT parts.p, t.* FROM parts CROSS JOIN LATERAL (
    SELECT ${select} FROM ${sql.table(table)} t WHERE t.owner_id = ${scope.principal.ownerId} AND t.grain = parts.grain AND t.period = parts.period
      ${sql.join(filters, sql` `)} OFFSET 0) t`;
}

/** Whole UTC months and days of each period whose rows may be used, and the ranges read from the calls. */
export function partsAndRanges(input: PartsInput) {
  const { periods } = input;
  const edges = periods.flatMap((p, i) => p.edges.map(([lo, hi]) => ({ p: i + 1, lo, hi })));
  // A per-period list flattened into two parallel arrays: period numbers (1-based) and values.
  const numbers = (of: (p: PeriodParts) => string[]) => periods.flatMap((p, i) => of(p).map(() => i + 1));
  const values = (of: (p: PeriodParts) => string[]) => periods.flatMap(of);
  return sql`
per AS (SELECT * FROM unnest(${periods.map((p) => p.dayFrom)}::date[], ${periods.map((p) => p.dayTo)}::date[]) WITH ORDINALITY AS x(dlo, dhi, p)),
marks AS MATERIALIZED (SELECT d.day FROM analytics_dirty d WHERE d.owner_id = ${input.scope.principal.ownerId}),
dirty AS (SELECT DISTINCT day FROM marks),
bad AS (SELECT day FROM dirty UNION SELECT unnest(${input.unusableDays}::date[])),
candidate_months AS (SELECT * FROM unnest(${numbers((p) => p.months)}::int[], ${values((p) => p.months)}::date[]) AS m(p, period)),
-- A month holding a bad day is read as its other days.
split_months AS (SELECT p, period FROM candidate_months m WHERE EXISTS (SELECT 1 FROM bad WHERE bad.day >= m.period AND bad.day < (m.period + interval '1 month')::date)),
months AS (SELECT p, period FROM candidate_months EXCEPT ALL SELECT p, period FROM split_months),
days AS (
  SELECT d.p, d.period FROM unnest(${numbers((p) => p.days)}::int[], ${values((p) => p.days)}::date[]) AS d(p, period)
  UNION ALL
  SELECT m.p, g::date FROM split_months m, generate_series(m.period, m.period + interval '1 month' - interval '1 day', interval '1 day') g
  EXCEPT ALL SELECT per.p, bad.day FROM per JOIN bad ON bad.day >= per.dlo AND bad.day < per.dhi),
parts AS (SELECT p, period, 'm'::"char" AS grain FROM months UNION ALL SELECT p, period, 'd'::"char" FROM days),
ranges AS (
  SELECT * FROM unnest(${edges.map((e) => e.p)}::int[], ${dates(edges.map((e) => e.lo))}::timestamptz[], ${dates(edges.map((e) => e.hi))}::timestamptz[]) AS r(p, lo, hi)
  UNION ALL
  SELECT per.p, bad.day::timestamp AT TIME ZONE 'UTC', (bad.day + 1)::timestamp AT TIME ZONE 'UTC' FROM per JOIN bad ON bad.day >= per.dlo AND bad.day < per.dhi)`;
}

/**
 * Whether every period is whole UTC days (no edges) and no day must be read raw regardless:
 * then a report can first try the rollup-only form of its statement (rollupOnlyParts).
 */
export const rollupOnlyFits = (input: Pick<PartsInput, 'periods' | 'unusableDays'>) =>
  input.unusableDays.length === 0 && input.periods.every((p) => p.edges.length === 0);

/**
 * The CTEs partsAndRanges defines, for periods where rollupOnlyFits, without the split of
 * dirty days (so no `ranges`): every part is a rollup row. The answer is exact only when
 * `dirty` (see checks) is 0, which it reads in the same snapshot; otherwise the caller reads
 * again with partsAndRanges. Its plan is a fraction of the mixed one, whose executor start-up
 * alone (0.28 ms) cost more than a one-campaign month's plain count/sum.
 */
export function rollupOnlyParts(input: PartsInput) {
  const { periods } = input;
  const numbers = periods.flatMap((p, i) => [...p.months, ...p.days].map(() => i + 1));
  const values = periods.flatMap((p) => [...p.months, ...p.days]);
  const grains = periods.flatMap((p) => [...p.months.map(() => 'm'), ...p.days.map(() => 'd')]);
  return sql`
per AS (SELECT * FROM unnest(${periods.map((p) => p.dayFrom)}::date[], ${periods.map((p) => p.dayTo)}::date[]) WITH ORDINALITY AS x(dlo, dhi, p)),
marks AS MATERIALIZED (SELECT d.day FROM analytics_dirty d WHERE d.owner_id = ${input.scope.principal.ownerId}),
dirty AS (SELECT DISTINCT day FROM marks),
parts AS (SELECT * FROM unnest(${numbers}::int[], ${values}::date[], ${grains}::"char"[]) AS x(p, period, grain))`;
}

/**
 * json_build_object entries every report statement returns: the requested campaign as
 * [owner_id, visible to the caller] (null when it does not exist or none was asked; the
 * caller answers 404 from it, so the check costs no round trip of its own), and how many
 * days of the periods, and marks of the owner in all, are still to fold (see rollup-compaction.ts).
 */
export function checks(input: PartsInput) {
  return sql`
  'campaign', (SELECT json_build_array(c.owner_id, c.id IN (SELECT id FROM visible)) FROM campaigns c WHERE c.id = ${input.scope.campaignId ?? null}::bigint),
  'dirty', (SELECT count(DISTINCT dirty.day) FROM per JOIN dirty ON dirty.day >= per.dlo AND dirty.day < per.dhi),
  'marks', (SELECT count(*) FROM marks)`;
}

export interface Checks {
  campaign: [number, boolean] | null;
  /** Whole days of the periods still marked dirty. */
  dirty: number;
  /** The owner's marks not yet folded, on any day (today's calls included). */
  marks: number;
}

/**
 * 404 for a campaign filter the caller cannot use: one that does not exist and one it may not see
 * (another account's, or its owner's not granted to a sub-user) alike. campaign_id is a filter,
 * not a path id: a 403 told which ids exist in other accounts (docs/api-conventions.md).
 */
export function checkCampaign(scope: CallScope, result: Checks): void {
  if (scope.campaignId !== undefined && !result.campaign?.[1]) throw notFound('Campaign');
}
