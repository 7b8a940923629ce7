/**
 * Offline redaction of personal data in transcripts and payloads, by rules and checksums:
 * cards (Luhn and issuer prefix), IBANs (ibantools: length, format, mod-97), national ids (US
 * SSNs without the SSA's unissued ranges, Spanish DNI/NIE and French NIR by their checks), e-mails, phones other than the contact's own
 * (libphonenumber), street addresses, dates of birth and, opt-in, names after a
 * self-introduction. Each value found is replaced whole by its typed marker ("[CARD]").
 *
 * Where two findings overlap, the one from the earlier category in DETECTION_ORDER wins and
 * the others are dropped, so a card is never also read as a phone number; the spans are
 * merged so nothing of a value is left beside a marker. Measured on
 * test/fixtures/redaction/ by `npm run measure:redaction`; see docs/privacy.md.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { detectAddresses } from './detect-address.ts';
import { detectCards } from './detect-card.ts';
import { detectDatesOfBirth } from './detect-dob.ts';
import { detectEmails } from './detect-email.ts';
import { detectIbans } from './detect-iban.ts';
import { detectNames } from './detect-name.ts';
import { detectPhones, normaliseKeepPhones } from './detect-phone.ts';
import { detectNationalIds } from './detect-national-id.ts';
import { detectSsns } from './detect-ssn.ts';
import { findNumberRuns, type NumberRun } from './number-runs.ts';
import {
  REDACTION_MARKERS,
  type Detector,
  type DetectorInput,
  type Finding,
  type RedactionCategory,
  type RedactionOptions,
} from './redaction.types.ts';

/**
 * Checksummed values first (an IBAN's digits could read as a phone number), e-mails before
 * phones (digits in a local part), then the context rules.
 */
const DETECTION_ORDER: readonly [RedactionCategory, Detector][] = [
  ['email', detectEmails],
  ['iban', detectIbans],
  ['card', detectCards],
  ['ssn', detectSsns],
  ['ssn', detectNationalIds],
  ['phone', detectPhones],
  ['dob', detectDatesOfBirth],
  ['address', detectAddresses],
  ['name', detectNames],
];
const PRIORITY = new Map<RedactionCategory, number>();
DETECTION_ORDER.forEach(([category], index) => PRIORITY.set(category, PRIORITY.get(category) ?? index));
const MIN_RUN_DIGITS = 7;

export type RedactionCounts = Partial<Record<RedactionCategory, number>>;
export type RedactionResult = { text: string; found: RedactionCounts };

/** Options read once: the contact's numbers parsed, the detectors chosen in order. */
export type Redactor = {
  /** The values found, overlaps resolved, in text order: what redact() replaces. */
  find(text: string): Finding[];
  redact(text: string): RedactionResult;
  redactDeep<T>(value: T): { value: T; found: RedactionCounts };
};

export const DEFAULT_MAX_DEPTH = 32;
/** What replaces a value nested deeper than maxDepth, or a reference back to an ancestor: it could not be read, so it is not kept. */
export const UNREADABLE_MARKER = '[REDACTED]';

function defaultCountryOf(options: RedactionOptions): CountryCode {
  if (options.defaultCountry) return options.defaultCountry;
  for (const phone of options.keepPhones ?? []) {
    const country = parsePhoneNumberFromString(phone)?.country;
    if (country) return country;
  }
  return 'US';
}

/** Every finding by category priority, keeping only those that overlap nothing kept before. */
function resolveOverlaps(findings: Finding[]): Finding[] {
  findings.sort((a, b) => PRIORITY.get(a.category)! - PRIORITY.get(b.category)! || a.start - b.start || b.end - a.end);
  const kept: Finding[] = [];
  for (const finding of findings) {
    if (!kept.some((other) => finding.start < other.end && other.start < finding.end)) kept.push(finding);
  }
  return kept.sort((a, b) => a.start - b.start);
}

export function createRedactor(options: RedactionOptions): Redactor {
  const chosen = new Set(options.categories);
  const detectors = DETECTION_ORDER.filter(([category]) => chosen.has(category)).map(([, detect]) => detect);
  const defaultCountry = defaultCountryOf(options);
  const keepPhones = normaliseKeepPhones(options.keepPhones ?? [], defaultCountry);

  function find(text: string): Finding[] {
    if (detectors.length === 0 || text.length === 0) return [];
    let runs: NumberRun[] | null = null;
    const input: DetectorInput = {
      text,
      runs: () => (runs ??= findNumberRuns(text, MIN_RUN_DIGITS)),
      defaultCountry,
      keepPhones,
    };
    const findings: Finding[] = [];
    for (const detect of detectors) detect(input, findings);
    return findings.length === 0 ? findings : resolveOverlaps(findings);
  }

  function redact(text: string): RedactionResult {
    const found: RedactionCounts = {};
    const findings = find(text);
    if (findings.length === 0) return { text, found };
    let redacted = '';
    let cursor = 0;
    for (const finding of findings) {
      redacted += text.slice(cursor, finding.start) + REDACTION_MARKERS[finding.category];
      cursor = finding.end;
      found[finding.category] = (found[finding.category] ?? 0) + 1;
    }
    return { text: redacted + text.slice(cursor), found };
  }

  function redactDeep<T>(value: T): { value: T; found: RedactionCounts } {
    const found: RedactionCounts = {};
    const ancestors = new Set<object>();
    const visit = (node: unknown, depth: number): unknown => {
      if (typeof node === 'string') {
        const result = redact(node);
        for (const [category, count] of Object.entries(result.found) as [RedactionCategory, number][]) {
          found[category] = (found[category] ?? 0) + count;
        }
        return result.text;
      }
      if (node === null || typeof node !== 'object') return node;
      if (depth >= (options.maxDepth ?? DEFAULT_MAX_DEPTH) || ancestors.has(node)) return UNREADABLE_MARKER;
      ancestors.add(node);
      try {
        if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
        // Keys are left as they are: they are the payload's schema, not what the person said.
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(node)) copy[key] = visit(item, depth + 1);
        return copy;
      } finally {
        ancestors.delete(node);
      }
    };
    return { value: visit(value, 0) as T, found };
  }

  return { find, redact, redactDeep };
}

/** One-off form of createRedactor(options).redact(text); build the redactor once for many texts. */
export function redact(text: string, options: RedactionOptions): RedactionResult {
  return createRedactor(options).redact(text);
}

/**
 * Strings anywhere in a JSON value redacted, keys untouched, the input not modified.
 * Values deeper than maxDepth, and cycles, become UNREADABLE_MARKER.
 */
export function redactDeep<T>(value: T, options: RedactionOptions): { value: T; found: RedactionCounts } {
  return createRedactor(options).redactDeep(value);
}
