/**
 * Dates of birth: a date that follows a birth word closely ("born on", "date of birth",
 * "DOB", "birthday", "nací el", "fecha de nacimiento", "né le", "date de naissance",
 * "geboren am", "Geburtsdatum"). Any other date (an appointment, an order date) is left
 * alone, which is the point: a transcript is full of dates and only this one is personal.
 *
 * Dates are read numeric (03/04/1985, 1985-03-04, 3.4.85), with month names in en/es/fr/de,
 * with English ordinals ("the third of March") and English spoken years ("nineteen
 * eighty-five"). A bare year ("born in 1985") is redacted too. German puts the date before
 * the participle ("Ich bin am 3. März 1985 in Köln geboren"), so for "geboren" the date is
 * also looked for just before it. Not handled: the date before the birth word in the other
 * languages ("March 3, 1985 is my birthday"), spoken years in es/fr/de.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

/** How far after the birth word the date may start ("born in Madrid on ..." fits). */
const CONTEXT_CHARS = 40;

/** Latin letters, accented ones included. */
const LETTER = 'A-Za-z\\u00C0-\\u024F';

const BIRTH_CUE = new RegExp(
  [
    "\\bborn\\b", 'date of birth', 'birth ?date', '\\bd\\.?o\\.?b\\b\\.?', 'birthday',
    `nac[ií](?![${LETTER}])`, 'nacid[oa]', 'fecha de nacimiento', 'cumpleaños',
    `(?<![${LETTER}])née?(?![${LETTER}])`, 'date de naissance', 'anniversaire',
    'geboren', 'geburtsdatum', 'geburtstag',
  ].join('|'),
  // No "u" flag: this pattern runs over every character of every transcript, four times faster without it.
  'gi',
);

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|' +
  'jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|' +
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|' +
  'janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|' +
  'januar|j[äa]nner|februar|m[äa]rz|juni|juli|oktober|dezember';
const ORDINAL_WORD =
  '(?:(?:twenty|thirty)[- ]?)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|tenth|eleventh|twelfth|' +
  'thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth';
const DAY = `(?:\\d{1,2}(?:st|nd|rd|th|er|º|\\.)?|${ORDINAL_WORD}|premier)`;
const SPOKEN_YEAR = "(?:nineteen|two thousand(?: and)?|twenty)(?:[- ](?:oh[- ])?[a-z]+(?:[- ][a-z]+)?)?";
const YEAR = `(?:\\d{4}|${SPOKEN_YEAR})`;

const DATE = new RegExp(
  '^(?:' +
    [
      '\\d{4}-\\d{1,2}-\\d{1,2}',
      '\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}',
      // March 3(rd), 1985 / March third 1985 / March 1985
      `(?:${MONTHS})\\.?\\s+(?:${DAY}(?:,?\\s+${YEAR})?|${YEAR})`,
      // the 3rd of March 1985 / 3 de marzo de 1985 / 3 mars 1985 / 3. März 1985
      `(?:the\\s+)?${DAY}\\s+(?:of\\s+|de\\s+)?(?:${MONTHS})\\.?(?:,?\\s+(?:de\\s+|del\\s+)?${YEAR})?`,
      '\\d{4}',
      SPOKEN_YEAR,
    ].join('|') +
    ')(?![\\p{L}\\d])',
  'iu',
);
/** Words that may sit between the cue and the date ("born on", "né le", "nací el"); "the" belongs to the date. */
const FILLER = /^[\s,:]*(?:(?:is|was|on|in|it's|es|fue|el|en|le|est|c'est|am|ist|war|im|:)[\s,:]+)*/iu;

/** Between a German date and "geboren": nothing, or a place ("in Köln"). */
const BEFORE_GEBOREN = /^\s*(?:in\s+[\p{Lu}][\p{L}-]*\s*)?$/u;
const WORD_START = /(?<![\p{L}\d.])[\p{L}\d]/gu;

function dateBefore(text: string, cueStart: number): Finding | null {
  const from = Math.max(0, cueStart - CONTEXT_CHARS - 20);
  const window = text.slice(from, cueStart);
  WORD_START.lastIndex = 0;
  for (let word = WORD_START.exec(window); word !== null; word = WORD_START.exec(window)) {
    const date = DATE.exec(window.slice(word.index));
    if (date && BEFORE_GEBOREN.test(window.slice(word.index + date[0].length))) {
      return { category: 'dob', start: from + word.index, end: from + word.index + date[0].length };
    }
  }
  return null;
}

export function detectDatesOfBirth(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  BIRTH_CUE.lastIndex = 0;
  for (let cue = BIRTH_CUE.exec(text); cue !== null; cue = BIRTH_CUE.exec(text)) {
    if (cue[0].toLowerCase() === 'geboren') {
      const before = dateBefore(text, cue.index);
      if (before) {
        out.push(before);
        continue;
      }
    }
    const after = cue.index + cue[0].length;
    const window = text.slice(after, after + CONTEXT_CHARS + 40);
    const filler = FILLER.exec(window)![0].length;
    // Skip a few words ("born in Madrid on") when the date does not follow at once.
    let offset = filler;
    let match = DATE.exec(window.slice(offset));
    while (match === null && offset < CONTEXT_CHARS) {
      const nextSpace = window.indexOf(' ', offset + 1);
      if (nextSpace < 0) break;
      offset = nextSpace + 1;
      match = DATE.exec(window.slice(offset));
    }
    if (match === null) continue;
    const start = after + offset;
    out.push({ category: 'dob', start, end: start + match[0].length });
    BIRTH_CUE.lastIndex = Math.max(BIRTH_CUE.lastIndex, start + match[0].length);
  }
}
