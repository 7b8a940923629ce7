import { sql, type Transaction } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Database } from '../../../db/schema.ts';
import type { DialCampaign } from './concurrency-locks.ts';
import type { RestedNumber } from '../../phone-numbers/number-health.repository.ts';

/**
 * Which of a campaign's numbers a call goes out from (local presence): the number that best
 * matches the contact, same area code first, then same country, else the next in rotation; a
 * number at its daily cap (outbound calls in the last 24 hours) is passed over, so volume is
 * spread and no number is flagged as spam; a number rested by number health is passed over too.
 * The choice and why are recorded on the call.
 */
export interface CallerId {
  number: string | null;
  reason: string;
}

interface Place {
  country: string | null;
  /** NANP: the 3-digit area code; elsewhere the national number, compared by common prefix. */
  national: string;
  nanp: boolean;
}

const places = new Map<string, Place>();
function placeOf(phone: string): Place {
  let place = places.get(phone);
  if (!place) {
    const parsed = parsePhoneNumberFromString(phone);
    const national = parsed?.nationalNumber ?? '';
    place = { country: parsed?.country ?? null, national, nanp: parsed?.countryCallingCode === '1' };
    if (places.size > 50_000) places.clear();
    places.set(phone, place);
  }
  return place;
}

/** Same area: NANP's area code; elsewhere at least the first two digits of the national number (the area prefix). */
function sameArea(a: Place, b: Place): boolean {
  if (a.country === null || a.country !== b.country) return false;
  return a.nanp ? a.national.slice(0, 3) === b.national.slice(0, 3) : a.national.slice(0, 2) === b.national.slice(0, 2);
}

/** Outbound calls per from-number in the last 24 hours, for the numbers that have a daily cap. */
export async function callsFromToday(trx: Transaction<Database>, campaigns: DialCampaign[], now: Date): Promise<Map<string, number>> {
  const capped = campaigns.flatMap((c) => (c.phones ?? []).filter((_, i) => c.phone_caps?.[i] != null));
  if (capped.length === 0) return new Map();
  const { rows } = await sql<{ from_number: string; n: number }>`
    SELECT from_number, count(*)::int AS n FROM calls
    WHERE call_type = 'outbound' AND from_number = ANY(${capped}::text[]) AND start_time > ${new Date(now.getTime() - 86_400_000)}::timestamptz
    GROUP BY from_number`.execute(trx);
  return new Map(rows.map((r) => [r.from_number, r.n]));
}

/**
 * The number for this contact's call, or null when every number of the campaign is at its daily
 * cap. `used` counts calls per number (the last 24 hours'); the choice is added to it. `rested`
 * (number health, modules/phone-numbers/number-health.rule.ts) are passed over while another
 * number is open; when every open number is rested the campaign still calls, from the least bad
 * (highest answer rate): holding a running campaign for a day would surprise its operator more
 * than a weaker number does, and the reason says so.
 */
export function chooseCallerId(
  campaign: DialCampaign,
  contact: { id: number; phone_number: string; calls_attempts: number },
  used: Map<string, number>,
  rested: Map<string, RestedNumber> = new Map(),
): CallerId | null {
  const phones = campaign.phones ?? [];
  if (phones.length === 0) return { number: campaign.campaign_phone, reason: campaign.campaign_phone ? "the campaign's number" : 'no campaign number (the route\'s default)' };
  const uncapped = phones.filter((p, i) => {
    const cap = campaign.phone_caps?.[i];
    return cap == null || (used.get(p) ?? 0) < cap;
  });
  if (uncapped.length === 0) return null;
  const { open, note } = passOverRested(uncapped, rested);
  const rotation = contact.id + contact.calls_attempts;
  let tier = open;
  let reason = 'next in rotation';
  if (open.length > 1) {
    const here = placeOf(contact.phone_number);
    const area = open.filter((p) => sameArea(placeOf(p), here));
    const country = open.filter((p) => here.country !== null && placeOf(p).country === here.country);
    if (area.length > 0) [tier, reason] = [area, 'same area code as the contact'];
    else if (country.length > 0 && country.length < open.length) [tier, reason] = [country, 'same country as the contact'];
  }
  const number = tier[rotation % tier.length]!;
  if (uncapped.length < phones.length) reason += ` (${phones.length - uncapped.length} number(s) at their daily cap)`;
  if (note) reason += ` (${note})`;
  used.set(number, (used.get(number) ?? 0) + 1);
  return { number, reason };
}

/** The numbers to choose among once the rested ones are passed over, and what the reason adds. */
function passOverRested(numbers: string[], rested: Map<string, RestedNumber>): { open: string[]; note: string | null } {
  const resting = numbers.filter((p) => rested.has(p));
  if (resting.length === 0) return { open: numbers, note: null };
  const why = (p: string) => rested.get(p)!.reason;
  const open = numbers.filter((p) => !rested.has(p));
  if (open.length > 0) return { open, note: `${resting.length} number(s) rested: ${resting.map(why).join('; ')}` };
  const rate = (p: string) => rested.get(p)!.answerRate ?? 0;
  const best = Math.max(...resting.map(rate));
  const least = resting.filter((p) => rate(p) === best);
  return { open: least, note: `every number rested; calling from the least bad: ${why(least[0]!)}` };
}
