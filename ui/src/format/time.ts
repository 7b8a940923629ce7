/**
 * Instants as a person reads them: in one time zone (the account's display zone, else the browser's),
 * with that zone named, so a time on one page means the same as on every other. The API answers
 * ISO 8601 in UTC; everything here is Intl, so no zone data ships with the dashboard.
 */

/** The browser's own IANA zone: what an account that chose none sees. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Building a DateTimeFormat costs far more than using one; a table formats hundreds of cells. */
function formatter(locale: string | undefined, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${zone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
  return f;
}

const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };

/** "Nov 25, 2026, 12:00 PM EST" (in the reader's locale); '' for no time, the text itself when it is not a time. */
export function formatTime(iso: string | Date | null | undefined, zone: string, locale?: string): string {
  if (iso === null || iso === undefined || iso === '') return '';
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return formatter(locale, zone, DATE_TIME).format(date);
}

/** A calendar date without a time ("Nov 25, 2026"), or a month ("Nov 2026"), of the instant in `zone`. */
export function formatDay(iso: string | Date, zone: string, precision: 'day' | 'month' = 'day', locale?: string): string {
  const options: Intl.DateTimeFormatOptions = precision === 'month' ? { year: 'numeric', month: 'short' } : { year: 'numeric', month: 'short', day: 'numeric' };
  return formatter(locale, zone, options).format(new Date(iso));
}

/** A bucket of an hour: day and time with the zone ("Nov 25, 2:00 PM EST"). */
export function formatHour(iso: string | Date, zone: string, locale?: string): string {
  return formatter(locale, zone, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso));
}

/** An instant's own ISO shape inside a sentence: "next opening 2026-11-25T17:00:00.000Z". */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * A sentence of the service (a contact's next-action reason) with every ISO instant in it shown as
 * formatTime shows times, so "next opening 2026-11-25T17:00:00.000Z" reads in the display zone.
 */
export function withTimesIn(text: string, zone: string, locale?: string): string {
  return text.replace(ISO_INSTANT, (iso) => formatTime(iso, zone, locale));
}

/** The calendar day ("YYYY-MM-DD") the instant falls on in `zone`. */
export function dayIn(instant: Date, zone: string): string {
  const parts = Object.fromEntries(formatter('en-US', zone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const parts = Object.fromEntries(formatter('en-US', zone, {
    year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23',
  }).formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a calendar day ("YYYY-MM-DD") starts in `zone`: its midnight, or where a DST change
 * skips midnight, the first moment of the day. `days` moves to a later (or earlier) day first.
 */
export function startOfDay(day: string, zone: string, days = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  const utcMidnight = Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days);
  // Two rounds: the offset at the first guess can differ from the offset at the answer across a change.
  let guess = utcMidnight - offsetAt(utcMidnight, zone);
  guess = utcMidnight - offsetAt(guess, zone);
  // A midnight a DST change skips (e.g. America/Santiago) lands in the previous day: the day starts an hour later.
  if (dayIn(new Date(guess), zone) !== dayIn(new Date(utcMidnight), 'UTC')) guess += 3_600_000;
  return new Date(guess);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall clock of `instant` in `zone`, as a datetime-local input shows it ("2026-11-25T12:00:00"). */
export function wallClockIn(instant: Date, zone: string): string {
  const local = new Date(instant.getTime() + offsetAt(instant.getTime(), zone));
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

/**
 * The instant a wall clock ("YYYY-MM-DDTHH:MM[:SS]", a datetime-local value) names in `zone`, or null
 * when the text is not one. A time a DST change repeats is its first occurrence, one it skips moves on by the gap.
 */
export function instantAt(local: string, zone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  if (Number.isNaN(wall)) return null;
  const guess = wall - offsetAt(wall, zone);
  return new Date(wall - offsetAt(guess, zone));
}
