import { DateTime, IANAZone } from 'luxon';
import { secondsOfDay } from '../../shared/time-of-day.ts';
import { WEEKDAYS, type WorkSchedule } from './work-schedule.ts';

/**
 * When a call may start: pure functions over one contact's rule, so they are easy to
 * test exhaustively. A call may start at instant t when
 *  - the campaign's allowed window [from, to) is open at t in EVERY zone of `zones`
 *    (from > to crosses midnight; a missing bound is the day's start/end; from = to or
 *    both missing = no restriction), and
 *  - the account's quiet hours (`quiet`, the legal calling window: seconds of the day [from, to))
 *    are open at t in EVERY zone of `zones` (the contact's own), and
 *  - the work_schedule (read in its own timezone, default UTC) has an interval
 *    [from, to) containing t's local time on a weekday it lists, t's local date is not
 *    a skip date (no schedule = always open).
 * DST: wall-clock times that do not exist (spring forward) open at the first instant
 * after the gap; repeated ones (fall back) open at both occurrences, and a window the
 * clocks go back into reopens at the change.
 */
export interface WindowRule {
  allowedFrom: string | null;
  allowedTo: string | null;
  zones: string[];
  schedule: WorkSchedule | null;
  /** The account's quiet hours as seconds of the day [from, to) in the contact's zones; null = none. */
  quiet?: [number, number] | null;
}

const DAY = 86_400;

function allowedBounds(rule: WindowRule): [number, number] | null {
  if (rule.allowedFrom === null && rule.allowedTo === null) return null;
  const from = rule.allowedFrom === null ? 0 : secondsOfDay(rule.allowedFrom);
  const to = rule.allowedTo === null ? DAY : secondsOfDay(rule.allowedTo);
  if (from === to || (from === 0 && to === DAY)) return null;
  return [from, to];
}

export function isUnrestricted(rule: WindowRule): boolean {
  return allowedBounds(rule) === null && rule.schedule === null && !rule.quiet;
}

function inAllowed(bounds: [number, number], sec: number): boolean {
  const [from, to] = bounds;
  return from < to ? sec >= from && sec < to : sec >= from || sec < to;
}

const secOf = (dt: DateTime) => dt.hour * 3600 + dt.minute * 60 + dt.second;

export function isOpen(rule: WindowRule, at: Date): boolean {
  const bounds = allowedBounds(rule);
  if (bounds || rule.quiet) {
    for (const zone of rule.zones) {
      const sec = secOf(DateTime.fromJSDate(at, { zone }));
      if (bounds && !inAllowed(bounds, sec)) return false;
      if (rule.quiet && !inAllowed(rule.quiet, sec)) return false;
    }
  }
  const schedule = rule.schedule;
  if (!schedule) return true;
  const local = DateTime.fromJSDate(at, { zone: schedule.timezone ?? 'UTC' });
  if (schedule.skip_dates?.includes(local.toISODate()!)) return false;
  if (!schedule.days) return true;
  const intervals = schedule.days[WEEKDAYS[local.weekday - 1]!] ?? [];
  const sec = secOf(local);
  return intervals.some((i) => sec >= secondsOfDay(i.from) && sec < secondsOfDay(i.to));
}

/**
 * The earliest instant >= `from` at which a call may start, or null when none within
 * `horizonDays`. Openness only begins at a boundary where some condition opens (a
 * local window start, a schedule interval start, a local midnight), so those are the
 * only candidates to try.
 */
export function nextOpening(rule: WindowRule, from: Date, horizonDays = 400): Date | null {
  if (isOpen(rule, from)) return from;
  // Most closed windows open within a week; only long holiday runs need the long search.
  return search(rule, from, Math.min(8, horizonDays)) ?? (horizonDays > 8 ? search(rule, from, horizonDays) : null);
}

function search(rule: WindowRule, from: Date, days: number): Date | null {
  const start = from.getTime();
  const candidates: number[] = [];
  const add = (zone: string, dayOffset: number, sec: number) => {
    const base = DateTime.fromJSDate(from, { zone }).startOf('day').plus({ days: dayOffset });
    const wanted = { year: base.year, month: base.month, day: base.day, hour: Math.floor(sec / 3600), minute: Math.floor((sec % 3600) / 60), second: sec % 60 };
    if (sec >= DAY) return add(zone, dayOffset + 1, 0);
    const dt = DateTime.fromObject(wanted, { zone });
    if (!dt.isValid) return;
    const ms = dt.toMillis();
    // Spring forward: the wall time does not exist; the window opens when the gap ends.
    if (dt.hour !== wanted.hour || dt.minute !== wanted.minute) {
      const end = gapEnd(zone, ms);
      if (end >= start) candidates.push(end);
      return;
    }
    // Fall back: the wall time happens twice and luxon picks one of them; try both.
    for (const occurrence of occurrences(zone, wanted, ms)) if (occurrence >= start) candidates.push(occurrence);
  };
  const bounds = allowedBounds(rule);
  // When clocks go back, a wall time that has just closed comes round again: a window
  // can reopen at the transition itself, which no window start marks.
  const zones = new Set([...(bounds || rule.quiet ? rule.zones : []), ...(rule.schedule ? [rule.schedule.timezone ?? 'UTC'] : [])]);
  for (const zone of zones) for (const ms of transitions(zone, start, start + (days + 1) * DAY * 1000)) candidates.push(ms);
  for (let d = -1; d <= days; d++) {
    if (bounds) for (const zone of rule.zones) add(zone, d, bounds[0]);
    if (rule.quiet) for (const zone of rule.zones) add(zone, d, rule.quiet[0]);
    const schedule = rule.schedule;
    if (schedule) {
      const zone = schedule.timezone ?? 'UTC';
      add(zone, d, 0);
      const starts = new Set<number>();
      for (const list of Object.values(schedule.days ?? {})) for (const i of list ?? []) starts.add(secondsOfDay(i.from));
      for (const s of starts) add(zone, d, s);
    }
  }
  candidates.sort((a, b) => a - b);
  for (const ms of candidates) {
    if (ms - start > days * DAY * 1000) break;
    const at = new Date(ms);
    if (isOpen(rule, at)) return at;
  }
  return null;
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** Every instant near `near` (one or two) whose wall time in `zone` is `wanted`. */
function occurrences(zone: string, wanted: WallTime, near: number): number[] {
  // Only a wall time next to an offset change can happen twice.
  if (transitions(zone, near - 2 * DAY * 1000, near + 2 * DAY * 1000).length === 0) return [near];
  const z = IANAZone.create(zone);
  const wallAsUtc = Date.UTC(wanted.year, wanted.month - 1, wanted.day, wanted.hour, wanted.minute, wanted.second);
  const found = new Set<number>();
  for (const probe of [near - 6 * 3_600_000, near, near + 6 * 3_600_000]) {
    const at = wallAsUtc - z.offset(probe) * 60_000;
    if (z.offset(at) * 60_000 === wallAsUtc - at) found.add(at);
  }
  return [...found];
}

/** The instants in [from, to) at which `zone` changes its offset. */
function transitions(zone: string, from: number, to: number): number[] {
  const found: number[] = [];
  // From the year before: a change at the very start of a year is found by the year before.
  for (let year = new Date(from).getUTCFullYear() - 1; year <= new Date(to).getUTCFullYear(); year++) {
    for (const at of transitionsInYear(zone, year)) if (at >= from && at < to) found.push(at);
  }
  return found;
}

// Zone rules do not change while the process runs: each zone's changes in a UTC year are
// found once (some 730 offset lookups) and then read from here.
const yearTransitions = new Map<string, number[]>();

function transitionsInYear(zone: string, year: number): number[] {
  const key = `${zone}|${year}`;
  const cached = yearTransitions.get(key);
  if (cached) return cached;
  const z = IANAZone.create(zone);
  const step = 12 * 3_600_000; // offsets never change twice within 12 hours
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const found: number[] = [];
  let before = z.offset(start);
  for (let t = start; t < end; t += step) {
    const next = Math.min(t + step, end);
    const after = z.offset(next);
    if (after !== before) found.push(gapEnd(zone, next, next - t));
    before = after;
  }
  yearTransitions.set(key, found);
  return found;
}

/** The first instant at or before `after` whose offset is the post-transition one. */
function gapEnd(zone: string, after: number, within = 3 * 3_600_000): number {
  const z = IANAZone.create(zone);
  const offsetAfter = z.offset(after);
  // Whole seconds: transitions happen on them.
  let lo = Math.floor((after - within) / 1000);
  let hi = Math.floor(after / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (z.offset(mid * 1000) === offsetAfter) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}
