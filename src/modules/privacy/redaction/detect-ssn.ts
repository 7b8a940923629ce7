/**
 * US Social Security numbers. The dashed form AAA-GG-SSSS is distinctive enough to be
 * redacted anywhere; the other forms ("123 45 6789", "123456789", nine spoken digits) are
 * nine digits like many others, so they count only when an SSN word is near before them
 * ("social security", "SSN", "seguro social", "sécurité sociale") and no look-alike cue
 * ("order number") sits right before them.
 *
 * Numbers the SSA never issues are not SSNs: area 000, 666 or 900-999, group 00, serial 0000.
 */
import type { NumberRun } from './number-runs.ts';
import { lookAlikeCueBefore } from './look-alikes.ts';
import type { DetectorInput, Finding } from './redaction.types.ts';

/** How far before the number an SSN word may be: about one sentence of a transcript. */
const CONTEXT_CHARS = 80;
const SSN_CONTEXT =
  /\b(?:ssn|s\.s\.n\.?|social security|social|seguro social|seguridad social|s[ée]curit[ée] sociale|num[ée]ro social|sozialversicherung\w*)\b/i;

export function isIssuableSsn(digits: string): boolean {
  if (digits.length !== 9) return false;
  const area = digits.slice(0, 3);
  if (area === '000' || area === '666' || area.charCodeAt(0) === 57) return false;
  return digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

/** Groups 3-2-4 joined by dashes only: the form written for SSNs and little else. */
function isDashedSsn(text: string, run: NumberRun): boolean {
  const tokens = run.tokens;
  if (tokens.length !== 3 || run.plus) return false;
  if (tokens[0]!.digits.length !== 3 || tokens[1]!.digits.length !== 2 || tokens[2]!.digits.length !== 4) return false;
  return text.slice(tokens[0]!.end, tokens[1]!.start).trim() === '-' && text.slice(tokens[1]!.end, tokens[2]!.start).trim() === '-';
}

export function detectSsns(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  for (const run of input.runs()) {
    if (run.digits.length !== 9 || !isIssuableSsn(run.digits)) continue;
    const start = run.tokens[0]!.start;
    if (!isDashedSsn(text, run)) {
      const before = text.slice(Math.max(0, start - CONTEXT_CHARS), start);
      if (!SSN_CONTEXT.test(before) || lookAlikeCueBefore(text, start)) continue;
    }
    out.push({ category: 'ssn', start, end: run.end });
  }
}
