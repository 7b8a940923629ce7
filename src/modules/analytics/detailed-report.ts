import { ROLLUP_STATUSES, actionColumn, statusColumn } from '../../db/migrations/0006_analytics_speed.ts';
import { readRollupFirst } from './rollup-compaction.ts';
import { breakdownsOf, byHourOf, type BreakdownRow, type CallScope } from './analytics.repository.ts';
import { checkCampaign, periodParts } from './period-sources.ts';
import { BASE_COLUMNS, rollupStatement, type RollupResult, type TotalsTuple } from './rollup-statement.ts';
import { ACTION_STATUSES, CALL_STATUSES, type DetailedResponseT, type TotalsT } from './analytics.schemas.ts';
import { cents, changeOf, resolveScope, roundedTotals, toTotals, type ScopeInput } from './analytics.service.ts';
import { localHourSql, offsetSegments, type OffsetSegments } from './zone-offsets.ts';
import { textsChange, textsOf } from './texts-report.ts';

// Positions in a TotalsTuple: [p, GROUPING(call_type), call_type, duration, cost, ...BASE_COLUMNS].
const COLUMN_AT = new Map(BASE_COLUMNS.map((c, i) => [c, 5 + i]));
const col = (row: TotalsTuple | undefined, column: string) => Number(row?.[COLUMN_AT.get(column)!] ?? 0);
const isTotal = (row: TotalsTuple) => row[1] === 1;
// The rollup has a column per status of the API; a status added later is named by a raw query.
const STATUSES_ROLLED = CALL_STATUSES.every((s) => (ROLLUP_STATUSES as readonly string[]).includes(s));

function totalsOf(row: TotalsTuple | undefined, uniqueContacts: number): TotalsT {
  const figures = row && { calls: col(row, 'calls'), answered: col(row, 'answered'), finished: col(row, 'finished'), successful: col(row, 'successful'), total_duration: Number(row[3]), total_cost: Number(row[4]) };
  return toTotals(figures, uniqueContacts);
}

/** Every known value in order with zeros, then any other value seen. */
function ordered<K extends string | null>(known: readonly K[], counts: [K, number][]) {
  const all = new Map<K, number>(known.map((k) => [k, 0]));
  for (const [k, n] of counts) all.set(k, (all.get(k) ?? 0) + n);
  return [...all.entries()];
}

/** Calls and successful calls per local hour: the rollup's UTC-hour counts rotated by each segment's offset, plus raw calls. */
function hoursFromRollup(result: RollupResult, zone: OffsetSegments): { calls: number[]; successful: number[] } {
  const calls = new Array<number>(24).fill(0);
  const successful = new Array<number>(24).fill(0);
  for (const [segment, ...counts] of result.hourSegments ?? []) {
    const shift = zone.offsets[segment - 1]! / 3600;
    for (let h = 0; h < 24; h++) {
      const local = (((h + shift) % 24) + 24) % 24;
      calls[local]! += Number(counts[h]);
      successful[local]! += Number(counts[24 + h]);
    }
  }
  for (const [hour, n, s] of result.rawHours ?? []) {
    calls[hour]! += Number(n);
    successful[hour]! += Number(s);
  }
  return { calls, successful };
}

function hoursFromCalls(rows: { hour: number; calls: number; successful: number }[]) {
  const byHour = new Map(rows.map((r) => [Number(r.hour), r]));
  const hour = (h: number) => byHour.get(h);
  return { calls: Array.from({ length: 24 }, (_, h) => Number(hour(h)?.calls ?? 0)), successful: Array.from({ length: 24 }, (_, h) => Number(hour(h)?.successful ?? 0)) };
}

/** Status and action status counts from the rollup columns, or from the calls when a value has no column. */
async function statusBreakdowns(input: ScopeInput, scope: CallScope, total: TotalsTuple | undefined) {
  if (!STATUSES_ROLLED || col(total, 'st_other') > 0 || col(total, 'ac_other') > 0) {
    const rows = await breakdownsOf(input.reports.db, scope);
    const of = (dim: BreakdownRow['dim']) => rows.filter((r) => r.dim === dim);
    return {
      byStatus: ordered<string>(CALL_STATUSES, of('status').map((r) => [r.status!, Number(r.calls)])),
      byAction: ordered<string | null>([...ACTION_STATUSES, null], of('action_status').map((r) => [r.action_status, Number(r.calls)])),
    };
  }
  return {
    byStatus: CALL_STATUSES.map((s) => [s, col(total, statusColumn(s))] as const),
    byAction: [...ACTION_STATUSES.map((a) => [a, col(total, actionColumn(a))] as const), [null, col(total, 'ac_none')] as const],
  };
}

export async function detailedAnalytics(input: ScopeInput & { compareWithPrevious: boolean }): Promise<DetailedResponseT> {
  const { scope, timeZone } = resolveScope(input);
  const length = scope.end.getTime() - scope.start.getTime();
  const previousScope: CallScope = { ...scope, start: new Date(scope.start.getTime() - length), end: scope.start };
  const periods = [periodParts(scope.start, scope.end), ...(input.compareWithPrevious ? [periodParts(previousScope.start, previousScope.end)] : [])];
  const zone = offsetSegments(timeZone, periods.at(-1)!.start, scope.end);
  // A day with a change of offset cannot give hours of day from its per-UTC-hour counts.
  const unusableDays = zone.wholeHours ? zone.changeDays : [];
  const parts = { db: input.reports.db, scope, periods, zone, unusableDays };
  // A zone off whole hours (India, Nepal, ...) cannot use the rollup's UTC-hour counts: its hours come from the calls.
  const [result, rawHours, texts] = await Promise.all([
    readRollupFirst(input.reports, parts, (form) => rollupStatement({ ...parts, form }), scope.principal.ownerId),
    zone.wholeHours ? null : byHourOf(input.reports.db, scope, localHourSql(zone)),
    textsOf(input.reports.db, scope, input.compareWithPrevious ? [scope, previousScope] : [scope]),
  ]);
  checkCampaign(scope, result);

  const rows = result.totals ?? [];
  const current = rows.filter((r) => r[0] === 1);
  const total = current.find(isTotal);
  const unique = new Map((result.uniq ?? []).map(([p, n]) => [p, Number(n)]));
  const totals = totalsOf(total, unique.get(1) ?? 0);
  const { byStatus, byAction } = await statusBreakdowns(input, scope, total);
  const hours = rawHours ? hoursFromCalls(rawHours) : hoursFromRollup(result, zone);
  const campaigns = (result.campaigns ?? [])
    .map(([id, title, calls, successful, duration, cost]) => ({ campaign_id: Number(id), campaign_title: title, calls: Number(calls), successful: Number(successful), total_cost: cents(Number(cost)), total_duration: Number(duration) }))
    .filter((c) => c.calls > 0)
    .sort((a, b) => b.calls - a.calls || a.campaign_id - b.campaign_id);

  const period = (s: CallScope) => ({ start: s.start, end: s.end, timezone: timeZone });
  const response: DetailedResponseT = {
    period: period(scope),
    totals: roundedTotals(totals),
    by_status: byStatus.map(([status, count]) => ({ status, count })),
    by_action_status: byAction.map(([action_status, count]) => ({ action_status, count })),
    by_call_type: ordered<string | null>(['outbound', 'inbound', null], current.filter((r) => !isTotal(r)).map((r) => [r[2], col(r, 'calls')])).map(([call_type, count]) => ({ call_type, count })),
    by_campaign: campaigns,
    by_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, count: hours.calls[hour]!, successful: hours.successful[hour]! })),
    texts: texts[0]!,
  };
  if (input.compareWithPrevious) {
    const previousTotals = totalsOf(rows.find((r) => r[0] === 2 && isTotal(r)), unique.get(2) ?? 0);
    response.previous = { period: period(previousScope), totals: roundedTotals(previousTotals), texts: texts[1]! };
    response.change = { ...changeOf(totals, previousTotals), texts: textsChange(texts[0]!, texts[1]!) };
  }
  return response;
}
