import { baseType, fits, type ExtractionInput, type FieldSchema } from './extractor.ts';
import { extractiveSummary } from './summary.ts';

/**
 * What the call itself already knows, for the rule-based extractor: the dialer's
 * classification (action status and its reason), how the call ended, its duration and
 * the contact's own data. A field gets one of these only when its name (or, failing
 * that, its description) says plainly which fact it wants, and only in a form its type
 * and enum accept; anything else stays for the transcript rules or null.
 */
export type Meaning = 'summary' | 'interest' | 'ended_by_reason' | 'ended_by' | 'reason' | 'duration' | 'outcome' | 'call_status';

/**
 * Checked in this order: the more specific wording first ("call ended by reason" is not
 * "ended by"; "why the client is interested" asks for a reason, not a yes). Narrow on
 * purpose: "status" alone or "length" would also match a marital status or a contract
 * length, and a wrong fact is worse than an honest null.
 */
const MEANINGS: [Meaning, RegExp][] = [
  ['summary', /\b(summary|summari[sz](e|ed|es|ing|ation)|recap|overview|synopsis|gist)\b/],
  ['ended_by_reason', /\b(end|ended|ending|hang|hung|hangup)\b.*\b(reason|why|cause)\b|\b(reason|why|cause)\b.*\b(end|ended|ending|hang|hung|hangup)\b/],
  ['ended_by', /\b(ended|end|hung up|hang up|hangup|terminated) by\b|\bwho (ended|hung|hang|finished|terminated)\b/],
  ['reason', /\b(reason|why)\b/],
  ['interest', /\binterest(ed)?\b/],
  ['duration', /\b(call (duration|length)|duration|talk time)\b/],
  ['outcome', /\b(call (outcome|result|disposition)|outcome|disposition|action status|lead status)\b|^result$/],
  ['call_status', /\b(call (status|state)|status of the call)\b|^(status|state)$/],
];
/** Interest as a degree or a topic ("which product interests them"), not the yes/no the action status answers. */
const NOT_YES_NO = /\b(level|score|rating|rate|degree|scale|how much|which|what|areas?|topics?|interests)\b/;
/** Durations of something other than the call. */
const NOT_CALL = /\b(contract|subscription|loan|lease|stay|trip|project|term|employment|membership|rental)\b/;

const meaningCache = new Map<string, Meaning | null>();

function meaningIn(text: string): Meaning | null {
  const words = text.toLowerCase().replace(/[_-]+/g, ' ');
  for (const [meaning, pattern] of MEANINGS) {
    if (!pattern.test(words)) continue;
    if (meaning === 'interest' && NOT_YES_NO.test(words)) return null;
    if (meaning === 'duration' && NOT_CALL.test(words)) return null;
    return meaning;
  }
  return null;
}

/** The name decides; the description is read only when the name names no fact (a field called "notes" described as "call summary"). */
export function meaningOf(name: string, field: FieldSchema): Meaning | null {
  const key = `${name}\u0000${field.description ?? ''}`;
  let meaning = meaningCache.get(key);
  if (meaning === undefined) {
    meaning = meaningIn(name) ?? (field.description ? meaningIn(field.description) : null);
    // Bounded like the extractor's keyword cache: an integration's fields repeat on every delivery.
    if (meaningCache.size >= 2000) meaningCache.clear();
    meaningCache.set(key, meaning);
  }
  return meaning;
}

const norm = (v: unknown) => String(v).toLowerCase().replace(/[\s_-]+/g, ' ').trim();
const POSITIVE = ['yes', 'true', 'y', '1', 'interested'];
const NEGATIVE = ['no', 'false', 'n', '0', 'not interested', 'uninterested'];
const PAIRS: [string, string][] = [['yes', 'no'], ['true', 'false'], ['y', 'n']];

/** A yes/no in the field's own vocabulary: its enum's literal, or the pair its example uses (in the example's case). */
export function booleanAs(field: FieldSchema, value: boolean): unknown {
  const type = baseType(field);
  if (type === 'boolean') return value;
  if (type === 'integer' || type === 'number') return value ? 1 : 0;
  const words = value ? POSITIVE : NEGATIVE;
  if (field.enum) return field.enum.find((e) => e !== null && words.includes(norm(e))) ?? null;
  const example = field.examples?.find((e): e is string => typeof e === 'string');
  const pair = PAIRS.find(([yes, no]) => example !== undefined && (norm(example) === yes || norm(example) === no)) ?? PAIRS[0]!;
  const word = value ? pair[0] : pair[1];
  if (example && example === example.toUpperCase() && example !== example.toLowerCase()) return word.toUpperCase();
  if (example && example[0] !== example[0]!.toLowerCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/**
 * A fact in the form the field accepts, or null: numbers become strings for string
 * fields (never the reverse unless the text is a plain number), and an enum field takes
 * the literal that equals the value ignoring case, spaces, _ and -.
 */
export function conform(field: FieldSchema, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return booleanAs(field, value);
  let out: unknown = value;
  const type = baseType(field);
  if (type === 'string' && typeof value === 'number') out = String(value);
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) out = Number(value);
  if (field.enum) out = field.enum.find((e) => e !== null && norm(e) === norm(out)) ?? null;
  return fits(field, out) ? out : null;
}

const POSITIVE_ACTIONS = new Set(['interested', 'scheduled', 'transferred']);

/**
 * Interest as the dialer classified it: interested, scheduled and transferred are a yes;
 * any other classification, or a finished call the assistant did not classify, is a no;
 * a call that never reached a conversation (voicemail, busy...) says nothing. An explicit
 * answer in the transcript is asked for only when the classification is not a yes.
 */
export function interestOf(input: ExtractionInput, answered: boolean | null): boolean | null {
  const action = input.call.action_status?.trim().toLowerCase() || null;
  if (action && POSITIVE_ACTIONS.has(action)) return true;
  if (answered !== null) return answered;
  if (action) return false;
  return input.call.status === 'finished' ? false : null;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The first non-empty string among the contact data keys. */
export function contactValue(contact: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) {
    const value = str(contact[key]);
    if (value) return value;
  }
  return null;
}

/** The contact's own number: its stored number, else the far end of the call. */
export function contactPhoneOf(input: ExtractionInput): string | null {
  return (
    contactValue(input.contact, ['phone', 'phone_number', 'mobile', 'telephone', 'tel']) ??
    str(input.facts?.contact_phone) ??
    str(input.call.call_type === 'inbound' ? input.call.from_number : input.call.to_number)
  );
}

function durationIn(field: FieldSchema, name: string, seconds: number | null): unknown {
  if (seconds === null) return null;
  const minutes = /\b(minutes?|mins?)\b/.test(`${name.replace(/_/g, ' ')} ${field.description ?? ''}`.toLowerCase());
  if (!minutes) return seconds;
  return baseType(field) === 'integer' ? Math.round(seconds / 60) : Math.round((seconds / 60) * 100) / 100;
}

/** The value a field's meaning takes from the call's facts (not yet conformed), or null. */
export function factFor(meaning: Meaning, name: string, field: FieldSchema, input: ExtractionInput, summary: () => string | null): unknown {
  const facts = input.facts;
  switch (meaning) {
    case 'summary':
      return baseType(field) === 'string' && !field.enum ? summary() : null;
    case 'interest':
      return interestOf(input, null);
    case 'ended_by_reason':
      return facts?.call_ended_by_reason ?? null;
    case 'ended_by':
      return facts?.call_ended_by ?? null;
    case 'reason':
      return facts?.action_status_reason ?? null;
    case 'duration':
      return durationIn(field, name, input.call.call_duration);
    case 'outcome':
      // The dialer's classification when there is one, else how the call ended.
      return conform(field, input.call.action_status) ?? input.call.status;
    case 'call_status':
      return input.call.status;
  }
}

/** Summary of the call, computed once per extraction and only if a field wants one. */
export function lazySummary(input: ExtractionInput): () => string | null {
  let done = false;
  let value: string | null = null;
  return () => {
    if (!done) {
      value = extractiveSummary(input.transcript);
      done = true;
    }
    return value;
  };
}
