/**
 * IBANs: country code, two check digits and the country's BBAN, written compact or in
 * groups ("ES91 2100 0418 4502 0005 1332"), in upper or lower case.
 *
 * The candidate is cut at the length the country's IBAN has (ibantools' registry), so
 * whatever follows ("... 1332 and the sort code") is not swallowed, and is then checked by
 * ibantools: BBAN format, mod-97 and the national check digits where a country has them.
 *
 * Not handled: IBANs spelled out letter by letter ("E S nine one ...") and account numbers
 * without an IBAN (US and UK account numbers have no checksum to tell them from an order
 * number).
 */
import { getCountrySpecifications, isValidIBAN } from 'ibantools';
import type { DetectorInput, Finding } from './redaction.types.ts';

const IBAN_LENGTH = new Map<string, number>();
for (const [country, spec] of Object.entries(getCountrySpecifications())) {
  if (spec.chars !== null && spec.IBANRegistry) IBAN_LENGTH.set(country, spec.chars);
}

/** Country letters and check digits, then at least 11 more characters (Norway's 15 is the shortest IBAN). */
const CANDIDATE = /(?<![\p{L}\d])[A-Za-z]{2}[ ]?\d{2}(?:[ -]?[A-Za-z0-9]){11,30}/gu;
const PRECHECK = /[A-Za-z]{2} ?\d{2}/;

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function detectIbans(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  if (!PRECHECK.test(text)) return;
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    const country = match[0].slice(0, 2).toUpperCase();
    const length = IBAN_LENGTH.get(country);
    if (length === undefined) {
      // Not a country: let the scan resume inside the match, where an IBAN may start.
      CANDIDATE.lastIndex = match.index + 1;
      continue;
    }
    // Walk the match to its `length`-th alphanumeric character: that is where the IBAN ends.
    let compact = '';
    let end = match.index;
    const limit = match.index + match[0].length;
    while (end < limit && compact.length < length) {
      const code = text.charCodeAt(end);
      if (isAlphanumeric(code)) compact += text[end]!.toUpperCase();
      end++;
    }
    if (compact.length === length && isValidIBAN(compact)) {
      out.push({ category: 'iban', start: match.index, end });
      CANDIDATE.lastIndex = end;
    } else {
      CANDIDATE.lastIndex = match.index + 1;
    }
  }
}
