/**
 * When "call me tomorrow" means: 10:00 tomorrow in the contact's time zone (UTC when it has
 * none or an unknown one). The dialer still applies the campaign's window and the quiet hours
 * when the contact comes due.
 */
export const CALLBACK_HOUR = 10;

export function tomorrowMorning(now: Date, timeZone: string | null): Date {
  const zone = validZone(timeZone) ?? 'UTC';
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now).split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d + 1, CALLBACK_HOUR);
  // The zone's offset at that wall time (twice, for a day whose offset changes).
  const first = wall - offsetMs(wall, zone);
  return new Date(wall - offsetMs(first, zone));
}

function offsetMs(utcMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(utcMs / 1000) * 1000;
}

function validZone(zone: string | null): string | null {
  if (!zone) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}
