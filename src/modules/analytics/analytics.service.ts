import { IANAZone, DateTime as Lux } from 'luxon';
import { unprocessable } from '../../http/errors.ts';
import { isValidTimeZone, unknownTimeZone } from '../../shared/timezone.ts';
import type { Principal } from '../auth/principal.ts';
import type { AnalyticsReports } from './rollup-compaction.ts';
import type { CallScope } from './analytics.repository.ts';
import { offsetSegments } from './zone-offsets.ts';
import {
  TOTAL_KEYS,
  type CallTypeFilter,
  type DetailedResponseT,
  type Granularity,
  type TotalsT,
} from './analytics.schemas.ts';

export const MAX_BUCKETS = 10_000;
export const MAX_PERIOD_YEARS = 10;
const MAX_PERIOD_MS = MAX_PERIOD_YEARS * 366 * 86_400_000;

export interface ScopeInput {
  reports: AnalyticsReports;
  principal: Principal;
  now: Date;
  startDate?: string | Date | undefined;
  endDate?: string | Date | undefined;
  campaignId?: number | undefined;
  callTypes?: CallTypeFilter[] | undefined;
  timezone?: string | undefined;
}

interface Resolved {
  scope: CallScope;
  timeZone: string;
}

// Checking a zone name builds an Intl formatter (0.1 ms, a tenth of a small report); names are few.
const zoneValidity = new Map<string, boolean>();
function validZone(name: string): boolean {
  let valid = zoneValidity.get(name);
  if (valid === undefined) {
    valid = isValidTimeZone(name);
    if (zoneValidity.size < 1024) zoneValidity.set(name, valid);
  }
  return valid;
}

// Periods live in these years: with at most 10 years per period, the previous period and
// every bucket stay in years JavaScript dates and PostgreSQL both handle alike (years
// 0-99 read as 1900-1999 in Date.UTC, year 0 and 10000 are out of PostgreSQL's range).
const EARLIEST = Date.UTC(1800, 0, 1);
const LATEST = Date.UTC(9000, 0, 1);

/** A query date-time as a Date: 422 for one that is not a real instant (a leap second) or out of range. */
function checkedDate(text: string | Date, field: 'start_date' | 'end_date'): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw unprocessable(['query', field], 'Input should be a valid datetime', 'datetime_parsing');
  if (date.getTime() < EARLIEST || date.getTime() > LATEST) {
    throw unprocessable(['query', field], 'Input should be between 1800-01-01T00:00:00Z and 9000-01-01T00:00:00Z', 'value_error');
  }
  return date;
}

/** Validates the shared inputs and turns them into a scope (the campaign is checked by the caller). */
export function resolveScope(input: ScopeInput): Resolved {
  const timeZone = input.timezone ?? 'UTC';
  if (!validZone(timeZone)) throw unprocessable(['query', 'timezone'], unknownTimeZone(timeZone), 'timezone');
  const givenStart = input.startDate !== undefined ? checkedDate(input.startDate, 'start_date') : undefined;
  const end = input.endDate !== undefined ? checkedDate(input.endDate, 'end_date') : input.now;
  // The API's default is "one month before now"; taken from end_date so an explicit end keeps a one-month window.
  const start = givenStart ?? Lux.fromJSDate(end, { zone: timeZone }).minus({ months: 1 }).toJSDate();
  if (start.getTime() > end.getTime()) throw unprocessable(['query', 'start_date'], 'start_date must not be after end_date', 'value_error');
  // Bounded: a report walks every month and day of its period (and of the previous one);
  // over the years 1-9999 that took 87 s of an empty account.
  if (end.getTime() - start.getTime() > MAX_PERIOD_MS) throw unprocessable(['query', 'end_date'], `The period may span at most ${MAX_PERIOD_YEARS} years`, 'value_error');
  return { scope: { principal: input.principal, start, end, campaignId: input.campaignId, callTypes: input.callTypes }, timeZone };
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/**
 * Figures as a person reads them: money to the cent, averages and rates to a precision that
 * means something. Sums of float costs showed as 3.3990000000000005.
 */
export const rounded = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const roundedOrNull = (value: number | null, digits: number) => (value === null ? null : rounded(value, digits));
export const cents = (value: number) => rounded(value, 2);

/** The additive figures of a period, from which the totals' ratios follow. */
export interface Figures {
  calls: number;
  answered: number;
  finished: number;
  successful: number;
  total_duration: number;
  total_cost: number;
}

export function toTotals(row: Figures | undefined, uniqueContacts: number): TotalsT {
  const calls = Number(row?.calls ?? 0);
  const answered = Number(row?.answered ?? 0);
  const totalDuration = Number(row?.total_duration ?? 0);
  const totalCost = Number(row?.total_cost ?? 0);
  const successful = Number(row?.successful ?? 0);
  return {
    calls,
    answered,
    finished: Number(row?.finished ?? 0),
    successful,
    success_rate: ratio(successful, calls),
    total_duration: totalDuration,
    average_duration: ratio(totalDuration, answered),
    total_cost: totalCost,
    average_cost: ratio(totalCost, calls),
    unique_contacts: uniqueContacts,
  };
}

/** Digits each figure is answered with (the rest are whole numbers); docs/analytics.md says the same. */
export const FIGURE_DIGITS = { success_rate: 4, average_duration: 2, total_cost: 2, average_cost: 4 } as const;

/** Totals as answered: each figure rounded to its digits, after every ratio and change was taken from the exact ones. */
export function roundedTotals(t: TotalsT): TotalsT {
  const out = { ...t };
  for (const [key, digits] of Object.entries(FIGURE_DIGITS) as [keyof typeof FIGURE_DIGITS, number][]) (out as Record<string, number | null>)[key] = roundedOrNull(t[key], digits);
  return out;
}

/** absolute = current - previous; percent relative to previous, null where previous is 0 or either side is null. */
export function changeOf(current: TotalsT, previous: TotalsT) {
  return Object.fromEntries(
    TOTAL_KEYS.map((key) => {
      const c = current[key];
      const p = previous[key];
      if (c === null || p === null) return [key, { absolute: null, percent: null }];
      return [key, { absolute: rounded(c - p, 4), percent: p === 0 ? null : rounded(((c - p) / Math.abs(p)) * 100, 2) }];
    }),
  ) as Omit<NonNullable<DetailedResponseT['change']>, 'texts'>;
}

const HOUR = 3_600_000;

/**
 * The start of every local hour from the one holding `start` to the one holding the last
 * instant before `end`, with its hour of day. Hours step in absolute time, so a DST change
 * neither doubles nor drops one. Luxon arithmetic per hour measured ~0.2 ms each (2 s for a
 * year), so the zone's offset is asked once a day and per hour only on a day it changes.
 */
export function hourSlots(start: Date, end: Date, timeZone: string, max: number): { slots: Date[]; hourOfSlot: number[] } {
  const zone = IANAZone.create(timeZone);
  const first = Lux.fromJSDate(start, { zone: timeZone }).startOf('hour').toMillis();
  const limit = Math.max(end.getTime(), start.getTime() + 1);
  const count = Math.ceil((limit - first) / HOUR);
  if (count > max) throw tooManyBuckets('hour', max);
  const slots: Date[] = [];
  const hourOfSlot: number[] = [];
  for (let day = 0; day * 24 < count; day++) {
    const dayStart = first + day * 24 * HOUR;
    const offset = zone.offset(dayStart);
    const steady = zone.offset(dayStart + 24 * HOUR) === offset;
    for (let h = 0; h < 24 && day * 24 + h < count; h++) {
      const at = dayStart + h * HOUR;
      const local = at + (steady ? offset : zone.offset(at)) * 60_000;
      slots.push(new Date(at));
      hourOfSlot.push((((Math.floor(local / HOUR) % 24) + 24) % 24));
    }
  }
  return { slots, hourOfSlot };
}

const tooManyBuckets = (granularity: Granularity, max: number) =>
  unprocessable(['query', 'granularity'], `The range needs more than ${max} ${granularity} buckets; choose a coarser granularity`, 'value_error');

/** Up to 2 days hourly, up to 92 days daily, longer monthly: each gives a chart of 24 to ~100 points. */
export function defaultGranularity(start: Date, end: Date): Granularity {
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  if (days <= 2) return 'hour';
  if (days <= 92) return 'day';
  return 'month';
}

/**
 * Bucket starts from the bucket holding `start` to the one holding the last instant before
 * `end`, on calendar boundaries in the zone, plus the end of the last bucket. Hours step in
 * absolute time (a DST change gives a 23- or 25-hour day, never a doubled or missing hour);
 * days, weeks and months step in calendar time. An empty period still has the one bucket
 * holding its start.
 */
export function bucketBounds(start: Date, end: Date, granularity: Granularity, timeZone: string): Date[] {
  if (granularity === 'hour') {
    const { slots } = hourSlots(start, end, timeZone, MAX_BUCKETS);
    return [...slots, new Date(slots.at(-1)!.getTime() + HOUR)];
  }
  const limit = Math.max(end.getTime(), start.getTime() + 1);
  // A month either side: the first boundary may lie a month before `start`.
  const zone = offsetSegments(timeZone, new Date(start.getTime() - MONTH_MARGIN), new Date(limit + MONTH_MARGIN));
  // One offset over the whole range (UTC, or no DST change near it): plain date arithmetic,
  // 5 µs for a month of days where Luxon took 170 µs (UTC) to 620 µs (Europe/Berlin).
  const step = zone.starts.length === 1 ? fixedOffsetStep(zone.offsets[0]! * 1000, granularity) : luxonStep(timeZone, granularity);
  const bounds: Date[] = [step(start, 0)];
  while (bounds.at(-1)!.getTime() < limit) {
    if (bounds.length > MAX_BUCKETS) throw tooManyBuckets(granularity, MAX_BUCKETS);
    bounds.push(step(bounds[0]!, bounds.length));
  }
  return bounds;
}

const MONTH_MARGIN = 32 * 86_400_000;

type Step = (first: Date, i: number) => Date;

/** The i-th boundary after the one holding `first` (i = 0: that boundary). */
function luxonStep(timeZone: string, granularity: Exclude<Granularity, 'hour'>): Step {
  return (first, i) => Lux.fromJSDate(first, { zone: timeZone }).startOf(granularity).plus({ [`${granularity}s`]: i }).toJSDate();
}

function fixedOffsetStep(offset: number, granularity: Exclude<Granularity, 'hour'>): Step {
  return (first, i) => {
    // Local wall time as UTC fields, then back by the offset.
    const local = new Date(first.getTime() + offset);
    const [y, m, d] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
    if (granularity === 'month') return new Date(Date.UTC(y, m + i, 1) - offset);
    if (granularity === 'week') return new Date(Date.UTC(y, m, d - ((local.getUTCDay() + 6) % 7) + 7 * i) - offset);
    return new Date(Date.UTC(y, m, d + i) - offset);
  };
}
