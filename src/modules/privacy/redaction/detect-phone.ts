/**
 * Phone numbers other than the contact's own, written or spoken: the digits of a number
 * run are valid for libphonenumber (full metadata: number ranges, not just lengths) either
 * as written with "+" or "00", as a national number of the default country, or, for 11
 * digits and more, as an international number said without its "+" ("33 6 12 34 56 78").
 *
 * A run that is not valid whole is retried without one or two tokens at either end, so a
 * stray "one" before or "2 times" after does not hide the number. The contact's own numbers
 * (keepPhones, compared in E.164) are left as they are. A look-alike cue just before the
 * run ("order number 2125550100") keeps it: ten digits are a valid US number very often.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { lookAlikeCueBefore } from './look-alikes.ts';
import type { NumberRun } from './number-runs.ts';
import type { DetectorInput, Finding } from './redaction.types.ts';

const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;
/** How many tokens may be dropped from each end of a run before giving up on it. */
const MAX_TRIM = 2;

/** The number in E.164 when the digits are a valid phone number, else null. */
export function validPhone(digits: string, international: boolean, country: CountryCode): string | null {
  if (digits.length < MIN_PHONE_DIGITS || digits.length > MAX_PHONE_DIGITS + 2) return null;
  if (international || digits.startsWith('00')) {
    const parsed = parsePhoneNumberFromString(`+${digits.startsWith('00') ? digits.slice(2) : digits}`);
    return parsed?.isValid() ? parsed.number : null;
  }
  const national = parsePhoneNumberFromString(digits, country);
  if (national?.isValid()) return national.number;
  if (digits.length >= 11) {
    const withPlus = parsePhoneNumberFromString(`+${digits}`);
    if (withPlus?.isValid()) return withPlus.number;
  }
  return null;
}

/** E.164 form of the contact's own numbers; unreadable ones are skipped. */
export function normaliseKeepPhones(keepPhones: readonly string[], country: CountryCode): Set<string> {
  const kept = new Set<string>();
  for (const phone of keepPhones) {
    const parsed = parsePhoneNumberFromString(phone, country);
    if (parsed) kept.add(parsed.number);
  }
  return kept;
}

function phoneInRun(input: DetectorInput, run: NumberRun): Finding | null {
  const tokens = run.tokens;
  for (let trimStart = 0; trimStart <= MAX_TRIM && trimStart < tokens.length; trimStart++) {
    for (let trimEnd = 0; trimEnd <= MAX_TRIM && trimStart + trimEnd < tokens.length; trimEnd++) {
      const last = tokens.length - 1 - trimEnd;
      let digits = '';
      for (let i = trimStart; i <= last; i++) digits += tokens[i]!.digits;
      if (digits.length < MIN_PHONE_DIGITS) continue;
      const international = trimStart === 0 && run.plus;
      const e164 = validPhone(digits, international, input.defaultCountry);
      if (e164 === null) continue;
      // The contact's own number is known to the campaign already; redacting it hides nothing.
      if (input.keepPhones.has(e164)) return null;
      // The run's start keeps its "+" or "(" inside the marker.
      return { category: 'phone', start: trimStart === 0 ? run.start : tokens[trimStart]!.start, end: tokens[last]!.end };
    }
  }
  return null;
}

export function detectPhones(input: DetectorInput, out: Finding[]): void {
  for (const run of input.runs()) {
    if (run.digits.length < MIN_PHONE_DIGITS) continue;
    if (lookAlikeCueBefore(input.text, run.tokens[0]!.start)) continue;
    const found = phoneInRun(input, run);
    if (found) out.push(found);
  }
}
