/**
 * E-mail addresses, written ("ana.lopez@gmail.com") or as STT writes them spoken
 * ("ana dot lopez at gmail dot com", "ana punto lopez arroba gmail punto com",
 * "ana point lopez arobase gmail point fr", "ana punkt lopez at gmx punkt de").
 *
 * The spoken form needs both the "at" word and a "dot" word before a known top-level
 * domain, so "meet me at home dot" is not one. A local part said in several words ("j smith
 * 42 at hotmail dot com") would match from its last word only and leave the rest beside the
 * marker, so the match is extended back over up to LOCAL_PART_WORDS words, stopping at a word
 * that introduces the address ("is", "email", "es", "c'est", …) or at punctuation. That takes
 * a word too many now and then ("write to me at ..." keeps "to" out, but not every verb), which
 * is the side to err on.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

const WRITTEN = /[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.[\p{L}]{2,}/gu;
const DOT = '(?:dot|punto|point|punkt)';
const AT = '(?:at|arroba|arobase|at sign|chez)';
const WORD = '[\\p{L}\\d_-]+';
const TOP_LEVEL = '(?:com|net|org|edu|gov|io|co|es|fr|de|mx|ar|uk|us|ca|be|ch|it|info|biz)';
const SPOKEN = new RegExp(
  `(?<![\\p{L}\\d])${WORD}(?:\\s+${DOT}\\s+${WORD}|[._-]${WORD})*\\s+${AT}\\s+${WORD}(?:\\s+${DOT}\\s+${WORD})*\\s+${DOT}\\s+${TOP_LEVEL}(?![\\p{L}\\d])`,
  'giu',
);
const SPOKEN_PRECHECK = new RegExp(`\\s${DOT}\\s+${TOP_LEVEL}\\b`, 'i');

const LOCAL_PART_WORDS = 4;
const WORD_BEFORE = /([\p{L}\d_'’-]+)[ \t]+$/u;
const INTRODUCES_ADDRESS = new Set([
  'is', "it's", 'its', 'my', 'email', 'e-mail', 'mail', 'address', 'to', 'at', 'me', 'send', 'write', 'the', 'and', 'or', 'please', 'use', 'try',
  'es', 'mi', 'correo', 'electrónico', 'electronico', 'a', 'al', 'el', 'la', 'y', 'o', 'mande', 'escriba', 'envíe', 'envie',
  "c'est", 'c’est', 'est', 'mon', 'mail', 'courriel', 'adresse', 'à', 'au', 'le', 'et', 'ou', 'envoyez', 'écrivez',
  'ist', 'meine', 'mein', 'an', 'die', 'und', 'oder', 'schicken', 'schreiben', 'sie',
]);

/** Where a spoken address starts once the words of its local part before the match are taken in. */
function localPartStart(text: string, start: number): number {
  let at = start;
  for (let words = 0; words < LOCAL_PART_WORDS; words++) {
    const word = WORD_BEFORE.exec(text.slice(Math.max(0, at - 40), at));
    if (word === null || INTRODUCES_ADDRESS.has(word[1]!.toLowerCase())) break;
    at -= word[0].length;
  }
  return at;
}

export function detectEmails(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  if (text.includes('@')) {
    WRITTEN.lastIndex = 0;
    for (let match = WRITTEN.exec(text); match !== null; match = WRITTEN.exec(text)) {
      out.push({ category: 'email', start: match.index, end: match.index + match[0].length });
    }
  }
  if (SPOKEN_PRECHECK.test(text)) {
    SPOKEN.lastIndex = 0;
    for (let match = SPOKEN.exec(text); match !== null; match = SPOKEN.exec(text)) {
      out.push({ category: 'email', start: localPartStart(text, match.index), end: match.index + match[0].length });
    }
  }
}
