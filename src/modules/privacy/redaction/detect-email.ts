/**
 * E-mail addresses, written ("ana.lopez@gmail.com") or as STT writes them spoken
 * ("ana dot lopez at gmail dot com", "ana punto lopez arroba gmail punto com",
 * "ana point lopez arobase gmail point fr", "ana punkt lopez at gmx punkt de").
 *
 * The spoken form needs both the "at" word and a "dot" word before a known top-level
 * domain, so "meet me at home dot" is not one. Not handled: local parts spelled letter by
 * letter ("a n a at ...").
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
      out.push({ category: 'email', start: match.index, end: match.index + match[0].length });
    }
  }
}
