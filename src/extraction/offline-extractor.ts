import { baseType, repairToSchema, type ExtractionInput, type Extractor, type FieldSchema, type TranscriptTurn } from './extractor.ts';
import { conform, contactPhoneOf, contactValue, factFor, interestOf, lazySummary, meaningOf } from './call-facts.ts';

/**
 * The default extractor: no network, no model. It fills only what plain rules can
 * determine and leaves the rest null. In this order, the first value that fits the
 * field's type and enum wins:
 * - a field whose name is a contact data key, one of the listed call fields or a call_data
 *   key: that value (a number becomes text for a string field);
 * - a field whose name (or description) names one of the call's own facts (see
 *   call-facts.ts): interest from the action status (interested, scheduled, transferred:
 *   yes; an explicit yes/no in the transcript otherwise; any other finished call: no),
 *   reason (action_status_reason), ended by and its reason, call duration (seconds, or
 *   minutes when the field says so), outcome (action status, else call status), call status;
 * - email / phone fields: the first address or number the caller said;
 * - date fields: the first explicit date (2025-03-14, 14.03.2025, 03/14/2025, March 14 2025) as YYYY-MM-DD;
 * - enum fields: the first literal of the enum the caller said;
 * - boolean fields: an explicit yes/no answer to the assistant's question about the field;
 * - integer/number fields: a number in the answer to the question about the field;
 * - name fields: the contact data's name (name, full_name, fio, first_name + last_name);
 * - summary fields: the first substantive sentences of the transcript, word for word (summary.ts);
 * - email / phone fields nobody said: the contact's own (contact data, else the number called).
 */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /\+?\(?\d[\d\s().-]{5,}\d/g;

/** Phone-looking runs of 7-15 digits that are not dates; a number written with + first. */
function findPhone(text: string): string | null {
  const candidates = [...text.matchAll(PHONE)]
    .map((m) => m[0].trim())
    .filter((c) => !findDate(c) && !/^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(c))
    .map((c) => (c.startsWith('+') ? '+' : '') + c.replace(/\D/g, ''))
    .filter((c) => c.replace('+', '').length >= 7 && c.replace('+', '').length <= 15);
  return candidates.find((c) => c.startsWith('+')) ?? candidates[0] ?? null;
}
const YES = /^\s*(yes|yeah|yep|sure|of course|certainly|absolutely|correct|right|i do|i am|i would|definitely)\b/i;
const NO = /^\s*(no|nope|not really|never|i don't|i do not|i'm not|i am not|not interested)\b/i;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_DATE = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const CALL_FIELDS = ['from_number', 'to_number', 'call_duration', 'start_time', 'end_time', 'call_type', 'action_status', 'status'];
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'this', 'that', 'what', 'call', 'client', 'customer', 'field', 'value']);

const pad = (n: number) => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2200) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

export function findDate(text: string): string | null {
  let m = text.match(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/);
  if (m) return isoDate(+m[1]!, +m[2]!, +m[3]!);
  m = text.match(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/);
  if (m) return isoDate(+m[3]!, +m[2]!, +m[1]!);
  m = text.match(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/);
  if (m) return isoDate(+m[3]!, +m[1]!, +m[2]!);
  m = text.match(MONTH_DATE);
  if (m) return isoDate(+m[3]!, MONTHS.indexOf(m[1]!.toLowerCase()) + 1, +m[2]!);
  return null;
}

const isUser = (turn: TranscriptTurn) => turn.role !== 'assistant' && turn.role !== 'system';

/**
 * Keywords by their source text. An integration's fields and instructions are the same
 * for most of its deliveries, and deriving the words showed in the webhook benchmark.
 * Bounded: cleared when full rather than tracking use.
 */
const keywordCache = new Map<string, string[]>();

function keywordsOf(name: string, field: FieldSchema, instruction: string | undefined): string[] {
  const source = `${name.replace(/_/g, ' ')} ${field.description ?? ''} ${instruction ?? ''}`;
  let keywords = keywordCache.get(source);
  if (!keywords) {
    const words = source.toLowerCase().match(/[a-z]{3,}/g) ?? [];
    keywords = [...new Set(words.filter((w) => !STOP.has(w)))];
    if (keywordCache.size >= 2000) keywordCache.clear();
    keywordCache.set(source, keywords);
  }
  return keywords;
}

/** The caller's answers to the assistant's turns that mention one of the keywords. */
function answersAbout(transcript: TranscriptTurn[], keywords: string[]): string[] {
  const answers: string[] = [];
  for (let i = 0; i < transcript.length - 1; i++) {
    const turn = transcript[i]!;
    if (isUser(turn)) continue;
    const text = turn.text.toLowerCase();
    if (!keywords.some((k) => text.includes(k))) continue;
    const next = transcript[i + 1]!;
    if (isUser(next)) answers.push(next.text);
  }
  return answers;
}

function contactName(contact: Record<string, unknown>, name: string): string | null {
  const str = (k: string) => (typeof contact[k] === 'string' && (contact[k] as string).trim() ? (contact[k] as string).trim() : null);
  if (/first_?name/.test(name)) return str('first_name') ?? str('firstname');
  if (/last_?name|surname/.test(name)) return str('last_name') ?? str('lastname') ?? str('surname');
  const first = str('first_name');
  const last = str('last_name');
  return str('name') ?? str('full_name') ?? str('fio') ?? str('FIO') ?? (first && last ? `${first} ${last}` : first);
}

function fromContext(name: string, input: ExtractionInput): unknown {
  if (name in input.contact) return input.contact[name];
  if (CALL_FIELDS.includes(name)) return (input.call as unknown as Record<string, unknown>)[name];
  // What the voice provider stored with the call (its own summary, sentiment...).
  if (input.call.call_data && Object.hasOwn(input.call.call_data, name)) return input.call.call_data[name];
  return undefined;
}

/** The first explicit yes or no among the answers. */
function yesNo(answers: string[]): boolean | null {
  for (const answer of answers) {
    if (NO.test(answer)) return false;
    if (YES.test(answer)) return true;
  }
  return null;
}

const EMAIL_KEYS = ['email', 'e_mail', 'mail', 'email_address'];
/** Stricter than the transcript rule's name test: a wrong fallback is sent as fact ("hotel" is no phone). */
const PHONE_NAME = /phone|mobile|msisdn|(^|_)(tel|cell)($|_)/;

/** Everything the caller said, once per call rather than once per field. */
const userTextOf = (transcript: TranscriptTurn[]) => transcript.filter(isUser).map((t) => t.text).join('\n');

function extractField(name: string, field: FieldSchema, input: ExtractionInput, userText: string, summary: () => string | null): unknown {
  const direct = conform(field, fromContext(name, input));
  if (direct !== null) return direct;
  const lower = name.toLowerCase();
  const answers = answersAbout(input.transcript, keywordsOf(name, field, input.instructions[name]));
  const meaning = meaningOf(name, field);
  // The call's own facts come before the transcript rules: the dialer's classification
  // and the call row are exact, a word the caller happened to say is not.
  if (meaning === 'interest') {
    const interest = conform(field, interestOf(input, yesNo(answers)));
    if (interest !== null) return interest;
  } else if (meaning && meaning !== 'summary') {
    const fact = conform(field, factFor(meaning, name, field, input, summary));
    if (fact !== null) return fact;
  }
  const said = conform(field, fromTranscript(lower, field, input, userText, answers));
  if (said !== null) return said;
  if (meaning === 'summary') return conform(field, factFor(meaning, name, field, input, summary));
  if (/e_?mail/.test(lower)) return conform(field, contactValue(input.contact, EMAIL_KEYS));
  if (PHONE_NAME.test(lower)) return conform(field, contactPhoneOf(input));
  return null;
}

/** The rules that read the transcript (and, for names, the contact data). */
function fromTranscript(lower: string, field: FieldSchema, input: ExtractionInput, userText: string, answers: string[]): unknown {
  const type = baseType(field);

  if (field.enum) {
    const said = `${answers.join('\n')}\n${userText}`.toLowerCase();
    return field.enum.find((e) => e !== null && new RegExp(`\\b${String(e).toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(said)) ?? null;
  }
  if (type === 'string' && /e_?mail/.test(lower)) return userText.match(EMAIL)?.[0] ?? null;
  if (type === 'string' && /phone|mobile|msisdn|tel/.test(lower)) {
    return findPhone(answers.join('\n')) ?? findPhone(userText);
  }
  if (type === 'string' && /date|day|when/.test(lower)) return findDate(answers.join('\n')) ?? findDate(userText);
  if (type === 'string' && /(^|_)(name|fio|full_?name|first_?name|last_?name|surname)($|_)|name$/.test(lower)) return contactName(input.contact, lower);
  if (type === 'boolean') return yesNo(answers);
  if (type === 'integer' || type === 'number') {
    for (const answer of answers) {
      const m = answer.replace(/(\d),(\d{3})/g, '$1$2').match(/-?\d+(\.\d+)?/);
      if (m) return type === 'integer' ? (Number.isInteger(Number(m[0])) ? Number(m[0]) : null) : Number(m[0]);
    }
    return null;
  }
  return null;
}

export function createOfflineExtractor(): Extractor {
  return {
    name: 'offline',
    async extract(input) {
      const answer: Record<string, unknown> = {};
      const userText = userTextOf(input.transcript);
      const summary = lazySummary(input);
      for (const [name, field] of Object.entries(input.schema.properties)) answer[name] = extractField(name, field, input, userText, summary);
      return repairToSchema(input.schema, answer, 'offline');
    },
  };
}
