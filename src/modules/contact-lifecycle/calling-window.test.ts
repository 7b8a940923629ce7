import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isOpen, nextOpening, type WindowRule } from './calling-window.ts';
import { contactZones } from './contact-window.ts';
import { WEEKDAYS } from './work-schedule.ts';

const rule = (r: Partial<WindowRule>): WindowRule => ({ allowedFrom: null, allowedTo: null, zones: ['UTC'], schedule: null, ...r });
const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toJSDate();

describe('calling windows', () => {
  it('opens a 09:00-17:00 window in the contact\'s zone and moves a late call to the next morning', () => {
    const r = rule({ allowedFrom: '09:00:00', allowedTo: '17:00:00', zones: ['America/New_York'] });
    expect(isOpen(r, at('2030-01-07T10:00', 'America/New_York'))).toBe(true);
    expect(isOpen(r, at('2030-01-07T17:00', 'America/New_York'))).toBe(false);
    expect(nextOpening(r, at('2030-01-07T18:30', 'America/New_York'))).toEqual(at('2030-01-08T09:00', 'America/New_York'));
  });

  it('handles a window that crosses midnight', () => {
    const r = rule({ allowedFrom: '22:00:00', allowedTo: '02:00:00', zones: ['Europe/Berlin'] });
    expect(isOpen(r, at('2030-01-07T23:30', 'Europe/Berlin'))).toBe(true);
    expect(isOpen(r, at('2030-01-08T01:59', 'Europe/Berlin'))).toBe(true);
    expect(isOpen(r, at('2030-01-08T02:00', 'Europe/Berlin'))).toBe(false);
    expect(nextOpening(r, at('2030-01-08T03:00', 'Europe/Berlin'))).toEqual(at('2030-01-08T22:00', 'Europe/Berlin'));
  });

  it('opens a window starting inside the spring-forward gap when the gap ends', () => {
    // 2030-03-10: New York clocks jump from 02:00 to 03:00.
    const r = rule({ allowedFrom: '02:30:00', allowedTo: '05:00:00', zones: ['America/New_York'] });
    const opening = nextOpening(r, at('2030-03-10T00:30', 'America/New_York'))!;
    expect(opening.toISOString()).toBe('2030-03-10T07:00:00.000Z'); // 03:00 EDT
    expect(isOpen(r, new Date(opening.getTime() - 1000))).toBe(false);
  });

  it('keeps local hours across the autumn DST change', () => {
    const r = rule({ allowedFrom: '09:00:00', allowedTo: '17:00:00', zones: ['Europe/Berlin'] });
    // 2030-10-27 Berlin goes from UTC+2 to UTC+1.
    expect(nextOpening(r, at('2030-10-26T18:00', 'Europe/Berlin'))!.toISOString()).toBe('2030-10-27T08:00:00.000Z');
    expect(nextOpening(r, at('2030-10-25T18:00', 'Europe/Berlin'))!.toISOString()).toBe('2030-10-26T07:00:00.000Z');
  });

  it('opens a window in the repeated autumn hour at its first occurrence, and again at its second', () => {
    // 2031-11-02: New York clocks go back from 02:00 EDT to 01:00 EST, so 01:00-01:30 happens twice.
    const r = rule({ allowedFrom: '01:00:00', allowedTo: '01:30:00', zones: ['America/New_York'] });
    expect(nextOpening(r, new Date('2031-11-02T04:00:00Z'))!.toISOString()).toBe('2031-11-02T05:00:00.000Z'); // 01:00 EDT
    expect(nextOpening(r, new Date('2031-11-02T05:30:00Z'))!.toISOString()).toBe('2031-11-02T06:00:00.000Z'); // 01:00 EST
    // The counterexample CI found: a UTC schedule that closes at 06:30 must not skip the first 01:00.
    const scheduled = { ...r, schedule: { timezone: 'UTC', days: { sun: [{ from: '00:00', to: '06:30' }] } } };
    expect(nextOpening(scheduled, new Date('2031-10-26T05:30:00Z'), 14)!.toISOString()).toBe('2031-11-02T05:00:00.000Z');
  });

  it('reopens a window when clocks go back into it', () => {
    // 2031-10-26 01:00Z: Berlin goes from 03:00 CEST back to 02:00 CET, inside a 17:30-02:30 window
    // that closed at 02:30 CEST (00:30Z). Los Angeles is at 18:00, inside the window too.
    const r = rule({ allowedFrom: '17:30', allowedTo: '02:30', zones: ['America/Los_Angeles', 'Europe/Berlin'] });
    expect(isOpen(r, new Date('2031-10-26T00:45:00Z'))).toBe(false);
    expect(nextOpening(r, new Date('2031-10-19T01:30:00Z'), 14)!.toISOString()).toBe('2031-10-26T01:00:00.000Z');
  });

  it('requires the window to be open in every zone of a multi-zone number', () => {
    const r = rule({ allowedFrom: '09:00:00', allowedTo: '17:00:00', zones: ['America/New_York', 'America/Los_Angeles'] });
    expect(isOpen(r, at('2030-01-07T10:00', 'America/New_York'))).toBe(false); // 07:00 in LA
    expect(nextOpening(r, at('2030-01-07T10:00', 'America/New_York'))).toEqual(at('2030-01-07T12:00', 'America/New_York'));
  });

  it('honours the weekly schedule, its timezone and its skip dates', () => {
    const r = rule({ schedule: { timezone: 'Europe/Berlin', days: { mon: [{ from: '09:00', to: '12:00' }], tue: [{ from: '13:00', to: '24:00' }] }, skip_dates: ['2030-01-08'] } });
    expect(isOpen(r, at('2030-01-07T11:59', 'Europe/Berlin'))).toBe(true);
    expect(isOpen(r, at('2030-01-07T12:00', 'Europe/Berlin'))).toBe(false);
    // Tuesday 8th is skipped, Wed-Sun have no intervals: next Monday.
    expect(nextOpening(r, at('2030-01-07T12:00', 'Europe/Berlin'))).toEqual(at('2030-01-14T09:00', 'Europe/Berlin'));
    expect(nextOpening(rule({ schedule: { days: {} } }), new Date('2030-01-07T00:00:00Z'))).toBeNull();
  });

  it('reads the contact\'s zone from its timezone, else its number, else the campaign, else UTC', async () => {
    expect(await contactZones({ timezone: 'Asia/Tokyo', phone_number: '+12125550100' }, null)).toEqual(['Asia/Tokyo']);
    expect(await contactZones({ timezone: null, phone_number: '+12125550100' }, null)).toEqual(['America/New_York']);
    expect((await contactZones({ timezone: null, phone_number: '+18005550100' }, null)).length).toBeGreaterThan(1); // toll-free spans zones
    expect(await contactZones({ timezone: null, phone_number: '+999' }, { timezone: 'Europe/Paris' })).toEqual(['Europe/Paris']);
    expect(await contactZones({ timezone: null, phone_number: '+999' }, null)).toEqual(['UTC']);
  });
});

const ZONES = ['UTC', 'America/New_York', 'America/Los_Angeles', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];
const hhmm = fc.integer({ min: 0, max: 47 }).map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
const arbRule = fc.record({
  allowed: fc.option(fc.tuple(hhmm, hhmm), { nil: null }),
  zones: fc.subarray(ZONES, { minLength: 1, maxLength: 2 }),
  schedule: fc.option(fc.record({
    timezone: fc.constantFrom(...ZONES),
    days: fc.dictionary(fc.constantFrom(...WEEKDAYS), fc.array(fc.tuple(hhmm, hhmm).filter(([a, b]) => a < b).map(([from, to]) => ({ from, to })), { maxLength: 2 })),
  }), { nil: null }),
}).map(({ allowed, zones, schedule }): WindowRule => ({ allowedFrom: allowed?.[0] ?? null, allowedTo: allowed?.[1] ?? null, zones, schedule }));
const arbInstant = fc.integer({ min: Date.parse('2030-01-01T00:00:00Z'), max: Date.parse('2031-12-31T00:00:00Z') }).map((t) => new Date(t));

describe('calling window properties', () => {
  it('the next opening is open, not before the start, and nothing earlier on a 15-minute grid is open', () => {
    fc.assert(fc.property(arbRule, arbInstant, (r, from) => {
      const opening = nextOpening(r, from, 14);
      if (opening === null) return;
      expect(isOpen(r, opening)).toBe(true);
      expect(opening.getTime()).toBeGreaterThanOrEqual(from.getTime());
      for (let t = from.getTime(); t < opening.getTime(); t += 15 * 60_000) expect(isOpen(r, new Date(t))).toBe(false);
    }), { numRuns: 150 });
  });

  it('a window that is open somewhere in the next week is found', () => {
    fc.assert(fc.property(arbRule, arbInstant, (r, from) => {
      let firstOpen: number | null = null;
      for (let t = from.getTime(); t < from.getTime() + 7 * 86_400_000; t += 30 * 60_000) {
        if (isOpen(r, new Date(t))) {
          firstOpen = t;
          break;
        }
      }
      const opening = nextOpening(r, from, 14);
      if (firstOpen !== null) {
        expect(opening).not.toBeNull();
        expect(opening!.getTime()).toBeLessThanOrEqual(firstOpen);
      }
    }), { numRuns: 100 });
  });
});
