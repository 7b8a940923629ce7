import type { CountryCode } from 'libphonenumber-js/max';
import type { NumberRun } from './number-runs.ts';

/** What a campaign or account setting can choose to redact; `name` is opt-in and weak. */
export const REDACTION_CATEGORIES = ['card', 'iban', 'ssn', 'email', 'phone', 'address', 'dob', 'name'] as const;
export type RedactionCategory = (typeof REDACTION_CATEGORIES)[number];

/** The typed marker that replaces a whole value: never a partial value ("****1111"). */
export const REDACTION_MARKERS = {
  card: '[CARD]',
  iban: '[IBAN]',
  ssn: '[SSN]',
  email: '[EMAIL]',
  phone: '[PHONE]',
  address: '[ADDRESS]',
  dob: '[DOB]',
  name: '[NAME]',
} as const satisfies Record<RedactionCategory, string>;

/** Everything but names, which the cues find too unreliably to be on by default. */
export const DEFAULT_REDACTION_CATEGORIES: readonly RedactionCategory[] = ['card', 'iban', 'ssn', 'email', 'phone', 'address', 'dob'];

export type RedactionOptions = {
  categories: readonly RedactionCategory[];
  /** The contact's own number(s), in any form libphonenumber reads: never redacted. */
  keepPhones?: readonly string[];
  /**
   * Country for phone numbers written without a country code. Default: the country of the
   * first keepPhones number, else 'US'.
   */
  defaultCountry?: CountryCode;
  /** redactDeep: objects and arrays nested deeper than this are replaced whole. Default 32. */
  maxDepth?: number;
};

/** One value found: [start, end) in the text. */
export type Finding = { category: RedactionCategory; start: number; end: number };

/** What every detector reads; the number runs are scanned once and shared. */
export type DetectorInput = {
  text: string;
  /** Runs with at least 7 digits (the shortest value read from runs: a national phone number). */
  runs: () => readonly NumberRun[];
  defaultCountry: CountryCode;
  /** keepPhones in E.164. */
  keepPhones: ReadonlySet<string>;
};

export type Detector = (input: DetectorInput, out: Finding[]) => void;
