import { describe, expect, it } from 'vitest';
import { CURRENCIES as API_CURRENCIES } from '../../src/shared/currencies.ts';
import { CURRENCIES } from '../../ui/src/format/currencies.ts';
import { totalOf } from '../../ui/src/format/counts.ts';
import { formatMoney } from '../../ui/src/format/money.ts';
import { asWords, callStatusLabel, callTypeLabel, contactStatusLabel, outcomeLabel } from '../../ui/src/format/statuses.ts';
import { dayIn, formatDay, formatHour, formatTime, startOfDay, withTimesIn } from '../../ui/src/format/time.ts';

/** The dashboard's formatting layer (ui/src/format), in Node: no browser needed, same Intl. */

describe('statuses as words', () => {
  it('reads every status of the interface as a person says it', () => {
    expect(contactStatusLabel('call_scheduled')).toBe('Call scheduled');
    expect(contactStatusLabel('in progress')).toBe('In progress');
    expect(contactStatusLabel('do_not_disturb')).toBe('Do not disturb');
    expect(callStatusLabel('busy_or_rejected')).toBe('Busy or rejected');
    expect(callStatusLabel('invalid number')).toBe('Invalid number');
    expect(outcomeLabel('interested')).toBe('Interested');
    expect(outcomeLabel(null)).toBe('None');
    expect(callTypeLabel(null)).toBe('Test call');
    expect(callTypeLabel('inbound')).toBe('Inbound');
  });

  it('still reads a value added to the API later, and never reads an object\'s own keys as a status', () => {
    expect(contactStatusLabel('waiting_for_callback')).toBe('Waiting for callback');
    expect(callStatusLabel('constructor')).toBe('Constructor');
    expect(asWords('')).toBe('');
  });
});

describe('times in the display zone', () => {
  const iso = '2026-11-25T17:00:00.000Z';

  it('shows the zone with the time, the same instant in each zone', () => {
    expect(formatTime(iso, 'America/New_York', 'en-US')).toBe('Nov 25, 2026, 12:00 PM EST');
    expect(formatTime(iso, 'UTC', 'en-US')).toBe('Nov 25, 2026, 5:00 PM UTC');
    expect(formatTime(iso, 'Asia/Tokyo', 'en-US')).toBe('Nov 26, 2026, 2:00 AM GMT+9');
  });

  it('shows nothing for no time and the text itself for a value that is not one', () => {
    expect(formatTime(null, 'UTC')).toBe('');
    expect(formatTime('', 'UTC')).toBe('');
    expect(formatTime('soon', 'UTC')).toBe('soon');
  });

  it('formats the ISO instants inside a next-action reason and leaves the rest of it alone', () => {
    expect(withTimesIn('outside calling window; next opening 2026-11-25T17:00:00.000Z', 'America/New_York', 'en-US'))
      .toBe('outside calling window; next opening Nov 25, 2026, 12:00 PM EST');
    expect(withTimesIn('retry 2 of 3 at 2026-03-01T08:30:00+01:00', 'Europe/Berlin', 'en-US')).toBe('retry 2 of 3 at Mar 1, 2026, 8:30 AM GMT+1');
    expect(withTimesIn('campaign paused', 'UTC', 'en-US')).toBe('campaign paused');
  });

  it('labels days, months and hour buckets in the zone', () => {
    expect(formatDay('2026-03-01T00:30:00Z', 'America/Los_Angeles', 'day', 'en-US')).toBe('Feb 28, 2026');
    expect(formatDay('2026-03-01T00:30:00Z', 'UTC', 'month', 'en-US')).toBe('Mar 2026');
    expect(formatHour('2026-03-01T14:00:00Z', 'UTC', 'en-US')).toBe('Mar 1, 2:00 PM UTC');
  });

  it('finds a day\'s midnight in a zone, across DST changes and where midnight is skipped', () => {
    expect(startOfDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Berlin', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-01-01', 'UTC', -30).toISOString()).toBe('2025-12-02T00:00:00.000Z');
    expect(startOfDay('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDay('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(startOfDay('2026-06-15', 'Asia/Kolkata').toISOString()).toBe('2026-06-14T18:30:00.000Z');
    // Chile moves its clocks at midnight: 2026-09-06 starts at 01:00 local.
    expect(startOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn(new Date('2026-06-14T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-15');
  });
});

describe('money', () => {
  it('reads the same amount alike on every page: currency, its decimals, and up to two more where the amount has them', () => {
    expect(formatMoney(0.306, 'USD', 'en-US')).toBe('$0.306');
    expect(formatMoney(0.075, 'USD', 'en-US')).toBe('$0.075');
    expect(formatMoney(2.03, 'USD', 'en-US')).toBe('$2.03');
    expect(formatMoney(2, 'USD', 'en-US')).toBe('$2.00');
    expect(formatMoney(0.00012, 'USD', 'en-US')).toBe('$0.0001');
    expect(formatMoney(1234.5, 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney(0, 'USD', 'en-US')).toBe('$0.00');
  });

  it('follows the currency\'s own minor unit and the reader\'s locale', () => {
    expect(formatMoney(120, 'JPY', 'en-US')).toBe('¥120');
    // Intl separates a code or a trailing symbol with a no-break space.
    const spaced = (text: string) => text.replace(/\u00a0/g, ' ');
    expect(spaced(formatMoney(1.5, 'KWD', 'en-US'))).toBe('KWD 1.500');
    expect(spaced(formatMoney(24.5, 'EUR', 'de-DE'))).toBe('24,50 €');
  });

  it('shows nothing for no amount', () => {
    expect(formatMoney(null, 'USD')).toBe('');
    expect(formatMoney(undefined, 'USD')).toBe('');
  });

  it('offers exactly the currencies the API accepts, each one Intl can format', () => {
    expect([...CURRENCIES]).toEqual([...API_CURRENCIES]);
    for (const c of CURRENCIES) expect(formatMoney(1, c, 'en-US'), c).not.toBe('');
  });
});

describe('list totals', () => {
  it('says an exact total as it is and an estimated one as "about N"', () => {
    expect(totalOf(1, true, 'contact')).toBe('1 contact');
    expect(totalOf(25, undefined, 'contact')).toBe('25 contacts');
    expect(totalOf(0, true, 'delivery', 'deliveries')).toBe('0 deliveries');
    expect(totalOf(1_000_312, false, 'event')).toBe('about 1,000,312 events');
  });
});
