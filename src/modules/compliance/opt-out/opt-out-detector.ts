/**
 * Offline opt-out detector: did the person on the call ask not to be called again?
 *
 * It is the fallback when neither the vendor's own signal nor the LLM extractor is
 * available, so it is deliberately conservative about what it counts:
 * - only the caller's (role 'user') words count; the assistant offering or confirming a
 *   removal is not a request;
 * - a caller's "yes" counts only as the answer to an explicit opt-out question in the
 *   assistant turn just before it (the adjacency pair), and not when they take it back;
 * - a phrase is discarded when it is negated ("don't stop calling me", "I'm not asking
 *   you to stop"), limited in time ("don't call me before 5", "... until next month"), or
 *   used in its naming sense ("don't call me sir").
 *
 * The phrasings live in one file per language (phrases-xx.ts). Everything is matched on a
 * normalised form (lower case, no accents, English contractions joined, other
 * punctuation split into clauses), so `phrase` in the result is that normalised text.
 * Measured on test/fixtures/opt-out/labelled.jsonl by `npm run measure:opt-out`.
 */
import { english } from './phrases-en.ts';
import { spanish } from './phrases-es.ts';
import { french } from './phrases-fr.ts';
import { german } from './phrases-de.ts';

/** One language's phrasings; see phrases-en.ts for what each field is for. */
export type PhraseSet = {
  patterns: PhrasePattern[];
  /** The text before a match ends with a negation of it ("don't", "I'm not asking you to"). */
  negatedBefore: RegExp;
  /** The text after a match limits it in time ("before 5", "until next month"). */
  limitedAfter: RegExp;
  /** For strictTail patterns: the words that may follow ("again", "please"), so "call me sir" is not one. */
  allowedTail: RegExp;
  /** An assistant question offering to stop calling; a "yes" to it is an opt-out. */
  optOutQuestion: RegExp;
  affirmative: RegExp;
  /** A clause taking the "yes" back ("wait, no", "keep me on"). */
  reversal: RegExp;
  /** An assistant turn asking when to call again, to which "never" is an opt-out. */
  callBackQuestion: RegExp;
  neverAnswer: RegExp;
};

export type PhrasePattern = {
  re: RegExp;
  strictTail?: boolean;
  /** Discard the match when its own text matches ("I'm not on the do not call list"). */
  rejectInside?: RegExp;
  /** Count the match only when the caller's whole turn matches too (bare "please stop"). */
  turnMustMatch?: RegExp;
};

export type TranscriptTurn = { role: 'assistant' | 'user'; text: string };

export type OptOutResult = {
  optOut: boolean;
  /** The normalised caller words that matched, or the caller's answer to the opt-out question. */
  phrase: string | null;
  /** The language whose phrasings matched ('en', 'es', 'fr', 'de'). */
  language: string | null;
};

const phraseSets = {
  en: compile(english),
  es: compile(spanish),
  fr: compile(french),
  de: compile(german),
} satisfies Record<string, PhraseSet>;
type Language = keyof typeof phraseSets;
const allLanguages = Object.keys(phraseSets) as Language[];

const NO_OPT_OUT: OptOutResult = { optOut: false, phrase: null, language: null };

export const supportedOptOutLanguages: readonly string[] = allLanguages;

/**
 * `language` is a tag such as 'es' or 'es-ES'. When it names a supported language, that
 * language's phrasings are tried first and English second (callers switch to English for
 * "stop calling me" often enough to matter); otherwise every language is tried.
 */
export function detectOptOut(transcript: readonly TranscriptTurn[], language?: string | null): OptOutResult {
  const languages = candidateLanguages(language);
  for (let i = 0; i < transcript.length; i++) {
    const turn = transcript[i]!;
    if (turn.role !== 'user') continue;
    const previous = i > 0 ? transcript[i - 1] : undefined;
    const assistantBefore = previous?.role === 'assistant' ? previous.text : null;
    const found = detectInTurn(turn.text, assistantBefore, languages);
    if (found) return found;
  }
  return NO_OPT_OUT;
}

function candidateLanguages(language: string | null | undefined): Language[] {
  const primary = language?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary && primary in phraseSets) {
    const first = primary as Language;
    return first === 'en' ? ['en'] : [first, 'en'];
  }
  return allLanguages;
}

function detectInTurn(text: string, assistantBefore: string | null, languages: Language[]): OptOutResult | null {
  const clauses = splitClauses(text);
  if (clauses.length === 0) return null;
  // The whole turn without clause breaks catches what ASR punctuation splits apart
  // ("Stop. Calling. Me.", German "Hören Sie auf, mich anzurufen"). A clause that is only
  // an answer word stays out of it: "No, siga llamando" must not read "no siga llamando".
  const whole = clauses.filter((clause) => !ANSWER_WORD.test(clause)).join(' ');
  const question = assistantBefore === null ? null : lastQuestion(assistantBefore);
  const assistant = assistantBefore === null ? null : clean(normaliseText(assistantBefore));

  for (const language of languages) {
    const set = phraseSets[language];
    for (const clause of clauses) {
      const phrase = matchPhrases(set, clause, whole);
      if (phrase) return { optOut: true, phrase, language };
    }
    if (clauses.length > 1) {
      const phrase = matchPhrases(set, whole, whole);
      if (phrase) return { optOut: true, phrase, language };
    }
    if (question !== null && set.optOutQuestion.test(question) && isAffirmative(set, clauses)) {
      return { optOut: true, phrase: whole, language };
    }
    if (assistant !== null && set.callBackQuestion.test(assistant) && set.neverAnswer.test(whole)) {
      return { optOut: true, phrase: whole, language };
    }
  }
  return null;
}

function matchPhrases(set: PhraseSet, clause: string, turn: string): string | null {
  for (const pattern of set.patterns) {
    if (pattern.turnMustMatch && !pattern.turnMustMatch.test(turn)) continue;
    pattern.re.lastIndex = 0;
    for (let m = pattern.re.exec(clause); m !== null; m = pattern.re.exec(clause)) {
      const matched = m[0];
      if (matched.length === 0) {
        pattern.re.lastIndex++;
        continue;
      }
      const before = clause.slice(0, m.index);
      const after = clause.slice(m.index + matched.length).trimStart();
      if (set.negatedBefore.test(before)) continue;
      if (set.limitedAfter.test(after)) continue;
      if (pattern.rejectInside?.test(matched)) continue;
      if (pattern.strictTail && after !== '' && !set.allowedTail.test(after)) continue;
      return matched.trim();
    }
  }
  return null;
}

function isAffirmative(set: PhraseSet, clauses: string[]): boolean {
  const [first, ...rest] = clauses;
  if (first === undefined || !set.affirmative.test(first)) return false;
  const restOfFirst = first.replace(set.affirmative, '').trim();
  return !set.reversal.test(restOfFirst) && !rest.some((clause) => set.reversal.test(clause));
}

/** Patterns are scanned with exec() from lastIndex, which needs the global flag. */
function compile(set: PhraseSet): PhraseSet {
  const patterns = set.patterns.map((pattern) => ({
    ...pattern,
    re: pattern.re.global ? pattern.re : new RegExp(pattern.re.source, `${pattern.re.flags}g`),
  }));
  return { ...set, patterns };
}

/** The last sentence of the assistant's turn that is a question, normalised. */
function lastQuestion(text: string): string | null {
  const sentences = text.split(/(?<=[.!?])\s+/);
  for (let i = sentences.length - 1; i >= 0; i--) {
    const sentence = sentences[i]!;
    if (sentence.includes('?')) return clean(normaliseText(sentence));
  }
  return null;
}

const ANSWER_WORD = /^(?:no|nope|nah|non|nein|yes|yeah|si|oui|ja)$/;

const CLAUSE_BREAK = /[.!?;,:…¿¡()"“”«»\u2014\u2013]+|\s-\s|\b(?:but|pero|mais|aber)\b/;

function splitClauses(text: string): string[] {
  const clauses: string[] = [];
  for (const part of normaliseText(text).split(CLAUSE_BREAK)) {
    const clause = clean(part);
    if (clause !== '') clauses.push(clause);
  }
  return clauses;
}

/**
 * Lower case without accents. English contractions are joined ("don't" -> "dont",
 * "I'm" -> "im"); any other apostrophe separates words, as French elision does
 * ("m'appeler" -> "m appeler").
 */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[’'`´](t|m|re|s|d|ll|ve)\b/g, '$1')
    .replace(/[’'`´]/g, ' ')
    .replace(/(\w)-(?=\w)/g, '$1 ');
}

/**
 * Letters, digits and single spaces only; a word or pair of words said again at once
 * (ASR stutter, "stop calling stop calling") is kept once.
 */
function clean(text: string): string {
  return text
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\b(\w+)(?: \1\b)+/g, '$1')
    .replace(/\b(\w+ \w+)(?: \1\b)+/g, '$1');
}
