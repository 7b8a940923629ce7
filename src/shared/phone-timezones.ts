import { timezones } from 'libphonenumber-geo-carrier';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

const cache = new Map<string, string[]>();
const CACHE_LIMIT = 10_000;

/**
 * The IANA zones a phone number's prefix maps to (Google's libphonenumber data):
 * one zone for most numbers, several for toll-free and some national prefixes,
 * none when unknown. Cached by the number's first digits.
 */
export async function timezonesForPhone(e164: string): Promise<string[]> {
  const key = e164.slice(0, 8);
  const hit = cache.get(key);
  if (hit) return hit;
  const parsed = parsePhoneNumberFromString(e164);
  const zones = parsed ? ((await timezones(parsed)) ?? []) : [];
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, zones);
  return zones;
}

/** The single zone of a number, or null when it maps to none or several. */
export async function timezoneForPhone(e164: string): Promise<string | null> {
  const zones = await timezonesForPhone(e164);
  return zones.length === 1 ? zones[0]! : null;
}
