/**
 * Phone numbers other than the contact's own, written or spoken: the digits of a number
 * run are valid for libphonenumber (full metadata: number ranges, not just lengths) either
 * as written with "+" or "00", or as a national number of the default country. An
 * international number said without its "+" ("33 6 12 34 56 78") is not tried: any 11 to
 * 13 digits are valid somewhere, so order and card-like numbers became phones.
 *
 * A run that is not valid whole is retried without one or two short tokens (a spoken digit,
 * or one or two written digits) at either end, so a stray "one" before or "2 times" after
 * does not hide the number; a 4-digit group is never dropped, or "6011 5022 0111" would be
 * a phone inside a mistyped card. Runs shaped like an SSN (3-2-4 dashed), a date
 * (21.07.1978, 03/04/1985) or a card (4 groups of 4, Luhn-invalid: a mistyped card) are not
 * phones. The contact's own numbers
 * (keepPhones, compared in E.164) are left as they are. A look-alike cue just before the
 * run ("order number 2125550100") keeps it: ten digits are a valid US number very often.
 */
import { Metadata, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { lookAlikeCueBefore } from './look-alikes.ts';
import type { NumberRun, NumberToken } from './number-runs.ts';
import type { DetectorInput, Finding } from './redaction.types.ts';

const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;
/** How many tokens may be dropped from each end of a run before giving up on it. */
const MAX_TRIM = 2;

/**
 * National lengths (with or without one trunk digit, "0" or "1") a country's numbers can have.
 * A parse costs tens of microseconds, most of the engine's time; a length check first
 * spares it for the 16-digit card runs, 9-digit SSNs and the like.
 */
const nationalLengths = new Map<CountryCode, ReadonlySet<number>>();
function possibleNationalLengths(country: CountryCode): ReadonlySet<number> {
  let lengths = nationalLengths.get(country);
  if (!lengths) {
    const metadata = new Metadata();
    metadata.selectNumberingPlan(country);
    const plan = metadata.numberingPlan?.possibleLengths() ?? [];
    lengths = new Set(plan.flatMap((length) => [length, length + 1]));
    nationalLengths.set(country, lengths);
  }
  return lengths;
}

/** The number in E.164 when the digits are a valid phone number, else null. */
export function validPhone(digits: string, international: boolean, country: CountryCode): string | null {
  if (digits.length < MIN_PHONE_DIGITS || digits.length > MAX_PHONE_DIGITS + 2) return null;
  const written = international || digits.startsWith('00');
  if (!written && !possibleNationalLengths(country).has(digits.length)) return null;
  if (written) {
    const parsed = parsePhoneNumberFromString(`+${digits.startsWith('00') ? digits.slice(2) : digits}`);
    return parsed?.isValid() ? parsed.number : null;
  }
  const national = parsePhoneNumberFromString(digits, country);
  return national?.isValid() ? national.number : null;
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

const DATE_SHAPED = /^\d{1,4}([./-])\d{1,2}\1\d{1,4}$/;
const SSN_SHAPED = /^\d{3}-\d{2}-\d{4}$/;
/** Four groups of four: how cards are written, and never a phone number (a mistyped card is not one). */
const CARD_SHAPED = /^\d{4}([ -]?)\d{4}\1\d{4}\1\d{4}$/;

function droppable(token: NumberToken): boolean {
  return token.spoken || token.digits.length <= 2;
}

function phoneInRun(input: DetectorInput, run: NumberRun): Finding | null {
  const tokens = run.tokens;
  const runText = input.text.slice(run.start, run.end);
  const written = runText.replace(/\s+/g, '');
  if (DATE_SHAPED.test(written) || SSN_SHAPED.test(written) || CARD_SHAPED.test(runText)) return null;
  for (let trimStart = 0; trimStart <= MAX_TRIM && trimStart < tokens.length; trimStart++) {
    if (trimStart > 0 && !droppable(tokens[trimStart - 1]!)) break;
    for (let trimEnd = 0; trimEnd <= MAX_TRIM && trimStart + trimEnd < tokens.length; trimEnd++) {
      if (trimEnd > 0 && !droppable(tokens[tokens.length - trimEnd]!)) break;
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

function overlapsAny(findings: readonly Finding[], count: number, start: number, end: number): boolean {
  for (let i = 0; i < count; i++) if (findings[i]!.start < end && start < findings[i]!.end) return true;
  return false;
}

export function detectPhones(input: DetectorInput, out: Finding[]): void {
  // Cards, IBANs and SSNs were looked for first: their runs are not parsed again (libphonenumber
  // is most of the engine's time).
  const earlier = out.length;
  for (const run of input.runs()) {
    if (run.digits.length < MIN_PHONE_DIGITS) continue;
    if (overlapsAny(out, earlier, run.start, run.end)) continue;
    if (lookAlikeCueBefore(input.text, run.tokens[0]!.start)) continue;
    const found = phoneInRun(input, run);
    if (found) out.push(found);
  }
}
