import { sql, type RawBuilder } from 'kysely';
import { IANAZone } from 'luxon';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * A zone's UTC offsets over a time range: `offsets[i]` (seconds) holds from `starts[i]` up to
 * the next start. `starts[0]` is -infinity so width_bucket(t, starts) picks the segment of any t.
 */
export interface OffsetSegments {
  starts: (Date | '-infinity')[];
  offsets: number[];
  /** UTC days (YYYY-MM-DD) holding a change of offset: their hours cannot come from per-day rows. */
  changeDays: string[];
  /**
   * Every offset is whole hours and every change falls on a whole UTC hour, so a UTC hour of
   * day maps to exactly one local hour and the rollup's per-UTC-hour counts can be rotated.
   */
  wholeHours: boolean;
}

// Offsets of one zone in one UTC year never change; computing them costs ~366 zone lookups.
const cache = new Map<string, { at: number; offset: number }[]>();
const CACHE_LIMIT = 512;

/** The instants in the UTC year where the zone's offset changes, with the offset after it (minutes). */
function changesInYear(zone: IANAZone, year: number): { at: number; offset: number }[] {
  const key = `${zone.name} ${year}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const changes: { at: number; offset: number }[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let previous = zone.offset(Date.UTC(year, 0, 1) - 1);
  // Day by day, then a binary search down to the minute inside a day whose offset moved.
  for (let day = Date.UTC(year, 0, 1); day < end; day += DAY) {
    const next = zone.offset(Math.min(day + DAY, end) - 1);
    const atStart = zone.offset(day);
    if (atStart !== previous) changes.push({ at: day, offset: atStart });
    if (next !== atStart) {
      // First minute of the day whose offset differs (minute 1440 stands for the day's end).
      let lo = 0;
      let hi = 1440;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (zone.offset(day + mid * 60_000) === atStart) lo = mid;
        else hi = mid;
      }
      changes.push({ at: day + hi * 60_000, offset: next });
    }
    previous = next;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, changes);
  return changes;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function offsetSegments(timeZone: string, from: Date, to: Date): OffsetSegments {
  const zone = IANAZone.create(timeZone);
  const starts: OffsetSegments['starts'] = ['-infinity'];
  // Whole seconds: before standard time, zones ran on local mean time, which Luxon gives in fractional minutes.
  const offsets = [Math.round(zone.offset(from.getTime()) * 60)];
  const changeDays: string[] = [];
  let wholeHours = offsets[0]! % 3600 === 0;
  if (zone.isUniversal) return { starts, offsets, changeDays, wholeHours };
  for (let year = new Date(from).getUTCFullYear(); year <= new Date(to).getUTCFullYear(); year++) {
    for (const change of changesInYear(zone, year)) {
      if (change.at <= from.getTime() || change.at >= to.getTime()) continue;
      starts.push(new Date(change.at));
      offsets.push(Math.round(change.offset * 60));
      changeDays.push(isoDay(change.at));
      wholeHours &&= change.offset % 60 === 0 && change.at % HOUR === 0;
    }
  }
  return { starts, offsets, changeDays, wholeHours };
}

/**
 * The local hour of day of a call's start_time: its UTC epoch plus the offset of its segment.
 * Exact for any offset, and cheaper per row than `AT TIME ZONE` (a zone lookup per row) or a
 * list of every local hour of the period as a parameter (8,760 timestamps for a year).
 */
export function localHourSql(zone: OffsetSegments): RawBuilder<number> {
  const starts = zone.starts.map((s) => (s instanceof Date ? s.toISOString() : s));
  return sql<number>`(((floor((date_part('epoch', start_time) + (${zone.offsets}::int[])[width_bucket(start_time, ${starts}::timestamptz[])]) / 3600)::bigint % 24) + 24) % 24)::int`;
}
