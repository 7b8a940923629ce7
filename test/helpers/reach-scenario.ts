import fc from 'fast-check';

/**
 * The random worlds of the reach properties (test/dialer-properties.test.ts and
 * test/texts-properties.test.ts): campaigns with windows, zones and schedules, contacts with
 * the simulator's outcomes, one number shared by several contacts, the account's quiet hours.
 */
export const SIM_STATUSES = ['finished', 'busy_or_rejected', 'unavailable', 'voicemail', 'silence', 'failed', 'rejected', 'terminated'] as const;
export const hour = fc.integer({ min: 0, max: 23 }).map((n) => `${String(n).padStart(2, '0')}:00`);
export const hhmm = (hours: number) => `${String(hours).padStart(2, '0')}:00`;

export const campaignShape = fc.record({
  limit: fc.integer({ min: 0, max: 3 }),
  maxAttempts: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  interval: fc.constantFrom<number[] | null>([1], [2, 7], null),
  window: fc.option(fc.tuple(hour, hour), { nil: null }),
  zone: fc.constantFrom(null, 'Asia/Tokyo', 'Europe/Berlin'),
});

export const contactShape = fc.record({
  status: fc.constantFrom(...SIM_STATUSES),
  duration: fc.integer({ min: 20, max: 900 }),
  shared: fc.boolean(),
});

/** The account's quiet hours as whole hours [from, to), from before noon and to after. */
export const quietHours = fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 13, max: 24 }));

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** A weekly schedule in a zone of its own, or none: some days closed, one interval on the others. */
export const workSchedule = fc.option(fc.record({
  timezone: fc.constantFrom('UTC', 'America/Los_Angeles', 'Australia/Sydney'),
  days: fc.tuple(fc.subarray([...DAYS], { minLength: 1 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 13, max: 24 }))
    .map(([open, from, to]) => Object.fromEntries(open.map((d) => [d, [{ from: hhmm(from), to: hhmm(to) }]]))),
}), { nil: null });

/** The seed of a property run: PROPERTY_SEED to replay one, else a fresh one (printed either way). */
export function propertySeed(name: string): number {
  const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Date.now() % 2 ** 31;
  console.log(`${name}: seed ${seed} (replay with PROPERTY_SEED=${seed})`);
  return seed;
}
