/**
 * Payment card numbers: 13 to 19 digits, Luhn-valid, starting with a known issuer prefix.
 *
 * The Luhn check alone lets one random number in ten through; the issuer prefix (the
 * brands below, which are what a caller reads out) removes most of the rest, e.g. order
 * numbers that start with 1, 7 or 8. A look-alike cue ("order number") does not stop a
 * card: a valid card redacted by mistake costs a marker, a card leaked costs much more.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;
const MAX_LEADING_TOKENS = 2;

/** Luhn over a string of ASCII digits, without allocating. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Visa 4; Mastercard 51-55 and 2221-2720; Amex 34, 37; Discover 6011, 644-649, 65;
 * Diners 300-305, 36, 38-39; JCB 3528-3589; UnionPay 62; Maestro 50, 56-58, 63, 67.
 */
export function knownIssuerPrefix(digits: string, length: number): boolean {
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  const first = digits.charCodeAt(0) - 48;
  if (first === 4) return length === 13 || length === 16 || length === 19;
  if (two >= 51 && two <= 55) return length === 16;
  if (four >= 2221 && four <= 2720) return length === 16;
  if (two === 34 || two === 37) return length === 15;
  if (four === 6011 || (four >= 6440 && four <= 6499) || two === 65) return length >= 16;
  if ((four >= 3000 && four <= 3059) || two === 36 || two === 38 || two === 39) return length >= 14;
  if (four >= 3528 && four <= 3589) return length >= 16;
  if (two === 62) return length >= 16;
  if (two === 50 || (two >= 56 && two <= 58) || two === 63 || two === 67) return length >= 13;
  return false;
}

export function isCardNumber(digits: string): boolean {
  const length = digits.length;
  return length >= MIN_CARD_DIGITS && length <= MAX_CARD_DIGITS && knownIssuerPrefix(digits, length) && luhnValid(digits);
}

/**
 * Each run is tried as windows of whole tokens, the longest valid one from each start, so a
 * card read with its expiry after it, or after a stray "one", is still found whole. A window
 * starts at most MAX_LEADING_TOKENS into a run, after noise only: a Luhn-valid stretch in
 * the middle of a 22-digit tracking number is one chance in ten per start, not a card
 * someone read out.
 */
export function detectCards(input: DetectorInput, out: Finding[]): void {
  for (const run of input.runs()) {
    if (run.digits.length < MIN_CARD_DIGITS) continue;
    const tokens = run.tokens;
    let from = 0;
    let lastStart = MAX_LEADING_TOKENS;
    while (from < tokens.length && from <= lastStart) {
      // Only noise may come before a card in its run (a stray "one", a "2"): a card starting at
      // the second 4-digit group of "9400 5544 3771 7925 7468 46" is a tracking number's middle.
      if (from > 0 && !tokens[from - 1]!.spoken && tokens[from - 1]!.digits.length > 2) break;
      let found = -1;
      let digits = '';
      for (let to = from; to < tokens.length; to++) {
        digits += tokens[to]!.digits;
        if (digits.length > MAX_CARD_DIGITS) break;
        if (isCardNumber(digits)) found = to;
      }
      if (found >= 0) {
        out.push({ category: 'card', start: tokens[from]!.start, end: tokens[found]!.end });
        from = found + 1;
        // Another card may follow in the same run ("4111..., and the other one 5500...").
        lastStart = from + MAX_LEADING_TOKENS;
      } else {
        from++;
      }
    }
  }
}
