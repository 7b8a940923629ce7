/**
 * Runs of digits as speech-to-text writes them: "4111 1111 1111 1111", "212-555-0100",
 * "(212) 555.0100", "+33 6 12 34 56 78", and digits spoken one by one as words
 * ("four one one one ...", "cuatro uno uno ...", "quatre un un ..."), mixed freely.
 *
 * The card, SSN and phone detectors all read the same runs, so the text is scanned once
 * for the three of them. A run keeps its tokens so a detector can take a window of whole
 * tokens (a card inside "4111 1111 1111 1111 12 26") and never half of a group.
 *
 * Not handled: numbers spoken as tens or hundreds ("forty-one eleven", "quarante et un"),
 * "double five" / "triple", and digit words in languages other than en/es/fr/de.
 */

/** One word per digit, by language; accents are written both ways because STT does both. */
const DIGIT_WORDS: Readonly<Record<string, string>> = {
  // English ("oh" is how people say 0 in phone numbers)
  zero: '0', oh: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9',
  // Spanish
  cero: '0', uno: '1', una: '1', dos: '2', tres: '3', cuatro: '4', cinco: '5', seis: '6', siete: '7', ocho: '8', nueve: '9',
  // French ("six" is shared with English)
  'zéro': '0', un: '1', une: '1', deux: '2', trois: '3', quatre: '4', cinq: '5', sept: '7', huit: '8', neuf: '9',
  // German
  null: '0', eins: '1', zwei: '2', zwo: '2', drei: '3', vier: '4', 'fünf': '5', fuenf: '5', sechs: '6', sieben: '7', acht: '8', neun: '9',
};

const WORD_ALTERNATION = Object.keys(DIGIT_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/**
 * Latin letters, accented ones included. The patterns below run over every character of every
 * transcript, and without the "u" flag (which \p{L} needs) they run about four times faster.
 */
const LETTER = 'A-Za-z\\u00C0-\\u024F';
/**
 * A digit group not glued to letters (so "1Z999AA1" and "3rd" are not runs) or a digit word
 * standing alone. The leading "+" is kept for phone numbers.
 */
const UNIT = `(?:(?<![${LETTER}\\d])\\d+(?![${LETTER}\\d])|(?<![${LETTER}])(?:${WORD_ALTERNATION})(?![${LETTER}]))`;
/**
 * Between two units: spaces, one dash/slash/parenthesis, a comma (STT punctuates spoken
 * digits: "four, one, one"), or a dot not followed by a space ("212.555.0100"; "4111. Two"
 * is two sentences, not one number).
 */
const SEPARATOR = `(?:[ \\t]*[-/()][ \\t]*|\\.(?=\\S)|,[ \\t]*|[ \\t]+)`;
const RUN = new RegExp(`(?:\\+[ \\t]?)?\\(?${UNIT}(?:${SEPARATOR}\\(?${UNIT})*`, 'gi');
const TOKEN = new RegExp(UNIT, 'gi');
/** Cheap gate: a text with neither a digit nor a digit word has no run at all. */
const ANY_DIGIT_WORD = new RegExp(`(?<![${LETTER}])(?:${WORD_ALTERNATION})(?![${LETTER}])`, 'i');

/**
 * A run that continues an identifier is part of that identifier, not a number of its own:
 * "INV-2025-0042" (glued by a dash or slash), "FR76 3000 6000 ..." (the word before mixes
 * letters and digits, as IBANs and codes do), "NL08 RABO 7351 ..." (a bank code after one).
 * A word of letters only ("VISA 4111 ...") does not.
 */
function continuesIdentifier(text: string, start: number): boolean {
  if (start === 0) return false;
  const before = text.charCodeAt(start - 1);
  if ((before === 45 || before === 47 || before === 95) && start >= 2 && isAlphanumeric(text.charCodeAt(start - 2))) return true;
  if (before !== 32) return false;
  const word = wordBefore(text, start - 1);
  if (word.mixed) return true;
  // "NL08 RABO 7351 ...": a bank code in capitals after an IBAN's start.
  return word.capitals === word.end - word.start && word.capitals >= 4 && word.start >= 2 && text.charCodeAt(word.start - 1) === 32 && wordBefore(text, word.start - 1).mixed;
}

/** The alphanumeric word ending at `end` (exclusive): whether it mixes letters and digits, and how many capitals it has. */
function wordBefore(text: string, end: number): { start: number; end: number; mixed: boolean; capitals: number } {
  let start = end;
  while (start > 0 && isAlphanumeric(text.charCodeAt(start - 1))) start--;
  let digits = 0;
  let capitals = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
    else if (code >= 65 && code <= 90) capitals++;
  }
  const letters = end - start - digits;
  return { start, end, mixed: letters > 0 && digits > 0, capitals };
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export type NumberToken = { start: number; end: number; digits: string; spoken: boolean };

export type NumberRun = {
  /** Offset of the run's first character, the "+" or "(" included. */
  start: number;
  end: number;
  tokens: NumberToken[];
  /** All the run's digits, in order. */
  digits: string;
  plus: boolean;
};

/** Digits in the text, counted without allocating; the detectors' pre-check. */
export function countDigits(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

/**
 * The text's number runs with at least `minDigits` digits. Spoken digits are only looked
 * for when the text has a digit word at all, and the scan is skipped when it has neither
 * enough written digits nor any digit word.
 */
export function findNumberRuns(text: string, minDigits: number): NumberRun[] {
  const runs: NumberRun[] = [];
  if (countDigits(text) < minDigits && !ANY_DIGIT_WORD.test(text)) return runs;
  RUN.lastIndex = 0;
  for (let match = RUN.exec(text); match !== null; match = RUN.exec(text)) {
    const runText = match[0];
    const runStart = match.index;
    // Every digit takes at least one character: "four" or "one" alone is no run worth reading.
    if (runText.length < minDigits) continue;
    const tokens: NumberToken[] = [];
    let digits = '';
    TOKEN.lastIndex = 0;
    for (let token = TOKEN.exec(runText); token !== null; token = TOKEN.exec(runText)) {
      const raw = token[0];
      const first = raw.charCodeAt(0);
      const spoken = !(first >= 48 && first <= 57);
      const value = spoken ? DIGIT_WORDS[raw.toLowerCase()] ?? '' : raw;
      tokens.push({ start: runStart + token.index, end: runStart + token.index + raw.length, digits: value, spoken });
      digits += value;
    }
    if (digits.length < minDigits || tokens.length === 0 || continuesIdentifier(text, runStart)) continue;
    runs.push({ start: runStart, end: tokens[tokens.length - 1]!.end, tokens, digits, plus: runText.charCodeAt(0) === 43 });
  }
  return runs;
}

/** The digits of tokens[from..to], inclusive. */
export function digitsOf(tokens: readonly NumberToken[], from: number, to: number): string {
  let digits = '';
  for (let i = from; i <= to; i++) digits += tokens[i]!.digits;
  return digits;
}
