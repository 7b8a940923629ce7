import type { paths } from '../../api/schema';
import type { Query } from '../../api/types';
import { dayIn, startOfDay } from '../../format/time';
import type { Format } from '../../format/useFormat';

/** The API's own answers, typed from the generated schema (never copied by hand). */
export type Detailed = paths['/api/v1/analytics/detailed']['get']['responses'][200]['content']['application/json'];
export type Trends = paths['/api/v1/analytics/trends']['get']['responses'][200]['content']['application/json'];
export type Totals = Detailed['totals'];
export type MetricKey = keyof Totals;
export type TrendMetric = NonNullable<Trends['metric']>;
export type Granularity = Trends['granularity'];
export type CallType = NonNullable<Query<'read_detailed_analytics'>['call_types']>[number];

type Kind = 'count' | 'rate' | 'seconds' | 'money';

/**
 * The headline figures, in the order shown, with the definition text of docs/analytics.md ("Definitions").
 * Each label links to #def-<key> on the page's own "Definitions" section.
 */
export const FIGURES: { key: MetricKey; label: string; kind: Kind; definition: string }[] = [
  { key: 'calls', label: 'Calls', kind: 'count', definition: 'calls in the period' },
  { key: 'answered', label: 'Answered', kind: 'count', definition: 'calls with call_duration > 0 (the line was open for at least a second)' },
  { key: 'finished', label: 'Finished', kind: 'count', definition: 'calls with status finished' },
  { key: 'successful', label: 'Successful', kind: 'count', definition: 'status finished and action_status one of interested, scheduled, transferred' },
  { key: 'success_rate', label: 'Success rate (%)', kind: 'rate', definition: 'successful / calls, a fraction from 0 to 1 (shown here as a percentage); null when there are no calls' },
  { key: 'total_duration', label: 'Total duration (s)', kind: 'seconds', definition: 'sum of call_duration, in seconds; a null duration counts 0' },
  { key: 'average_duration', label: 'Average duration (s)', kind: 'seconds', definition: 'total_duration / answered, seconds; null when nothing was answered' },
  { key: 'total_cost', label: 'Total cost', kind: 'money', definition: 'sum of cost as stored on calls (no currency conversion); a null cost counts 0' },
  { key: 'average_cost', label: 'Average cost', kind: 'money', definition: 'total_cost / calls; null when there are no calls' },
  { key: 'unique_contacts', label: 'Unique contacts', kind: 'count', definition: 'distinct contacts among the calls' },
];

export type TextKey = keyof Detailed['texts'];

/** The text message figures (the report's `texts`), in the order shown, with docs/analytics.md's definitions; labels link to #def-texts-<key>. */
export const TEXT_FIGURES: { key: TextKey; label: string; kind: Kind; definition: string }[] = [
  { key: 'sent', label: 'Texts sent', kind: 'count', definition: 'outbound texts the vendor accepted (a send refused at once, or whose answer was lost, is not counted)' },
  { key: 'delivered', label: 'Texts delivered', kind: 'count', definition: 'outbound texts with status delivered or read' },
  { key: 'failed', label: 'Texts failed', kind: 'count', definition: 'outbound texts with status failed or undelivered' },
  { key: 'replies', label: 'Replies', kind: 'count', definition: 'inbound texts received' },
  { key: 'replied_contacts', label: 'Contacts who replied', kind: 'count', definition: 'distinct contacts who sent at least one inbound text' },
  { key: 'opt_outs_by_text', label: 'Opt-outs by text', kind: 'count', definition: 'distinct contacts whose STOP (or a vendor\'s "unsubscribed") put their number on the do-not-call list' },
  { key: 'cost', label: 'Text cost', kind: 'money', definition: 'sum of cost of outbound texts as the vendor reported it; not part of the calls\' total cost' },
  { key: 'reached_after_unanswered_calls', label: 'Reached by text after unanswered calls', kind: 'count', definition: 'contacts who texted in after a call of the period although none of their calls in the period was answered' },
];

export const TEXTS_DEFINITION =
  'text messages (SMS, WhatsApp) count when their row was written (the send of an outbound text, the arrival of an inbound one), in the same period and campaigns as calls; the call type filter does not apply to them.';

export const PERIOD_DEFINITION =
  'the half-open range [start_date, end_date). A call counts when its start_time falls in it; calls without a start_time never count. ' +
  'Half-open so that the previous period, the current period and every bucket tile the time line without counting a call twice.';

export const TREND_METRICS: { value: TrendMetric; label: string }[] = [
  { value: 'calls', label: 'Calls' },
  { value: 'successful', label: 'Successful calls' },
  { value: 'duration', label: 'Duration (s)' },
  { value: 'cost', label: 'Cost' },
];

export const GRANULARITIES = [
  { value: 'auto', label: 'Automatic' },
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

export const CALL_TYPES = [
  { value: 'outbound', label: 'Outbound' },
  { value: 'inbound', label: 'Inbound' },
  { value: 'none', label: 'Test calls (no type)' },
];

/**
 * A figure as the API answered it: counts and seconds as the number itself (the API already rounds
 * averages to 2 or 4 decimals), money through the account's currency (ui/src/format/money.ts), a rate
 * (a fraction rounded to 4 decimals) as a percentage with 2 decimals, which loses nothing. Null: "n/a".
 */
export function formatFigure(kind: Kind, value: number | null | undefined, money: (amount: number) => string): string {
  if (value === null || value === undefined) return 'n/a';
  if (kind === 'rate') return `${(value * 100).toFixed(2)}%`;
  if (kind === 'money') return money(value);
  return String(value);
}

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : text);

/** The change against the previous period: absolute (a rate's in percentage points, money in the currency) and percent, as answered. */
export function formatChange(kind: Kind, change: { absolute: number | null; percent: number | null } | undefined, money: (amount: number) => string): string {
  if (!change || change.absolute === null) return 'n/a';
  const absolute = kind === 'rate'
    ? `${signed((change.absolute * 100).toFixed(2), change.absolute)} pp`
    : signed(kind === 'money' ? money(change.absolute) : String(change.absolute), change.absolute);
  const percent = change.percent === null ? 'n/a %' : `${signed(String(change.percent), change.percent)}%`;
  return `${absolute} (${percent})`;
}

/**
 * The period as the API takes it: whole days in `zone` (the account's display zone), end exclusive.
 * "Last N days" is the N days ending with today (today included); a custom range runs from From's
 * midnight to the midnight after To.
 */
export function periodOf(preset: string, from: string, to: string, zone: string, now = new Date()): { start: Date; end: Date } | { error: string } {
  if (preset === 'custom') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return { error: 'Choose both dates' };
    const start = startOfDay(from, zone);
    const end = startOfDay(to, zone, 1);
    if (end <= start) return { error: 'To must be on or after From' };
    return { start, end };
  }
  const today = dayIn(now, zone);
  return { start: startOfDay(today, zone, 1 - Number(preset)), end: startOfDay(today, zone, 1) };
}

/** A bucket's start in the display zone, as precise as its granularity. */
export function bucketLabel(iso: string, granularity: Granularity, f: Pick<Format, 'hour' | 'day'>): string {
  if (granularity === 'hour') return f.hour(iso);
  return f.day(iso, granularity === 'month' ? 'month' : 'day');
}
