/**
 * Names, opt-in and weak: only the words right after a self-introduction cue ("my name is",
 * "me llamo", "mi nombre es", "je m'appelle", "mon nom est", "ich heiße", "mein Name ist").
 * The first word is taken in any case (STT does not always capitalise names), up to two
 * more only when capitalised. Names said any other way ("this is Ana", "speaking with
 * Mr Smith", the agent greeting the contact by name) are not found.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

const CUE =
  /(?:my name is|my name's|name's|me llamo|mi nombre es|je m['’]appelle|mon nom est|mon nom c['’]est|ich hei(?:ß|ss)e|mein name ist)\s+/giu;
const WORD = /^[\p{L}][\p{L}'’-]*/u;
/** Words that follow the cue without being a name ("my name is not important"). */
const NOT_A_NAME = new Set([
  'not', 'the', 'a', 'an', 'on', 'in', 'is', 'and', 'but', 'actually', 'just', 'still', 'also', 'spelled', 'like', 'mister', 'miss', 'mrs', 'mr', 'doctor', 'dr',
  'no', 'es', 'el', 'la', 'y', 'pero', 'que', 'de', 'ne', 'pas', 'le', 'et', 'mais', 'nicht', 'und', 'aber', 'der', 'die', 'das',
]);
/** Particles inside a name ("María de la Cruz", "Ludwig van Beethoven"). */
const PARTICLE = new Set(['de', 'del', 'la', 'van', 'von', 'da', 'di', 'du', 'le']);

export function detectNames(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  CUE.lastIndex = 0;
  for (let cue = CUE.exec(text); cue !== null; cue = CUE.exec(text)) {
    const start = cue.index + cue[0].length;
    let end = start;
    let words = 0;
    let position = start;
    while (words < 3) {
      const word = WORD.exec(text.slice(position, position + 40));
      if (word === null) break;
      const lower = word[0].toLowerCase();
      const capitalised = word[0][0] !== lower[0];
      if (words === 0 ? NOT_A_NAME.has(lower) : !capitalised && !PARTICLE.has(lower)) break;
      position += word[0].length;
      if (!PARTICLE.has(lower) || words === 0) {
        end = position;
        words++;
      }
      if (text[position] !== ' ') break;
      position++;
    }
    if (end > start) out.push({ category: 'name', start, end });
  }
}
