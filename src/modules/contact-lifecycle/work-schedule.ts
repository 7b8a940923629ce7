import { Type, type Static } from 'typebox';
import { unknownTimeZone } from '../../shared/timezone.ts';

/**
 * The campaign's weekly calling schedule (`work_schedule`). Shape decided here, since
 * the public interface leaves it open:
 *
 * {
 *   "timezone": "Europe/Berlin",                  // IANA zone the schedule is read in; default UTC
 *   "days": {                                     // optional; omitted = every day, all day
 *     "mon": [{ "from": "09:00", "to": "12:00" }, { "from": "13:00", "to": "18:00" }],
 *     "sat": []                                   // a day with no intervals, or a day left out, has no calls
 *   },
 *   "skip_dates": ["2026-12-25", "2027-01-01"]    // local dates (in timezone) with no calls
 * }
 *
 * Intervals are local wall-clock times "HH:MM", `from` < `to`, `to` may be "24:00"; an
 * interval never crosses midnight (use two). A call may start only while both this
 * schedule (in its timezone) and the campaign's call_allowed_from_time/to_time (in the
 * contact's zone) are open. The campaign's timezone, for contacts whose zone is unknown,
 * is this schedule's timezone.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Clock = Type.String({ pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$', description: 'local time HH:MM (24h); 24:00 ends a day' });
// No additionalProperties: false on these objects: the app's Ajv would silently strip an unknown
// key ({"monday": [...]} became {}, a schedule open all week). workScheduleProblem refuses it instead.
export const ScheduleInterval = Type.Object({ from: Clock, to: Clock });

export const WorkSchedule = Type.Object(
  {
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone, e.g. Europe/Berlin; default UTC' })),
    days: Type.Optional(
      Type.Object(
        Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Type.Array(ScheduleInterval, { maxItems: 24 }))])) as Record<Weekday, ReturnType<typeof Type.Optional<ReturnType<typeof Type.Array<typeof ScheduleInterval>>>>>,
      ),
    ),
    skip_dates: Type.Optional(Type.Array(Type.String({ format: 'date' }), { maxItems: 1000, description: 'local dates with no calls (holidays)' })),
  },
  {
    description:
      'Weekly calling schedule: {timezone, days: {mon..sun: [{from:"HH:MM", to:"HH:MM"}]}, skip_dates: ["YYYY-MM-DD"]}. ' +
      'Omitted days = every day; a listed-but-missing or empty day = no calls. Intervals do not cross midnight; to may be 24:00. ' +
      'Calls start only while this schedule and call_allowed_from_time/to_time (contact local time) are both open.',
  },
);
export type WorkSchedule = Static<typeof WorkSchedule>;

const TOP_KEYS = ['timezone', 'days', 'skip_dates'];
const unknownKey = (value: object, known: readonly string[]) => Object.keys(value).find((k) => !known.includes(k));

/** Checks Ajv does not make here: no unknown key, a known time zone and from < to. Returns a message or null. */
export function workScheduleProblem(schedule: WorkSchedule, isValidZone: (zone: string) => boolean): { path: (string | number)[]; msg: string; type?: string } | null {
  const extra = unknownKey(schedule, TOP_KEYS);
  if (extra !== undefined) return { path: [extra], msg: `Unknown key '${extra}'; a work_schedule has ${TOP_KEYS.join(', ')}` };
  const extraDay = schedule.days ? unknownKey(schedule.days, WEEKDAYS) : undefined;
  if (extraDay !== undefined) return { path: ['days', extraDay], msg: `Unknown day '${extraDay}'; days are ${WEEKDAYS.join(', ')}` };
  for (const day of WEEKDAYS) {
    for (const [i, interval] of (schedule.days?.[day] ?? []).entries()) {
      const extraField = unknownKey(interval, ['from', 'to']);
      if (extraField !== undefined) return { path: ['days', day, i, extraField], msg: `Unknown key '${extraField}'; an interval has from and to` };
    }
  }
  if (schedule.timezone !== undefined && !isValidZone(schedule.timezone)) return { path: ['timezone'], msg: unknownTimeZone(String(schedule.timezone)), type: 'timezone' };
  for (const day of WEEKDAYS) {
    const intervals = schedule.days?.[day] ?? [];
    for (const [i, interval] of intervals.entries()) {
      if (interval.from >= interval.to) return { path: ['days', day, i], msg: '`from` must be earlier than `to` (split intervals that cross midnight)' };
    }
  }
  return null;
}
