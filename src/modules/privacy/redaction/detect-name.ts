/**
 * Names, opt-in and weak: only the words right after a self-introduction cue ("my name is",
 * "me llamo", "mi nombre es", "je m'appelle", "mon nom est", "ich heiße", "mein Name ist").
 * The first word is taken in any case (STT does not always capitalise names), up to two
 * more only when capitalised. The looser cues "this is", "soy", "c'est", "hier ist" also
 * say "this is Amazon" and "c'est Paris", so after them the first word must be capitalised
 * too and not a common word. Names said any other way ("speaking with Mr Smith", the agent
 * greeting the contact by name) are not found.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

const CUE =
  /(?:my name is|my name's|name's|me llamo|mi nombre es|je m['’]appelle|mon nom est|mon nom c['’]est|ich hei(?:ß|ss)e|mein name ist)\s+/giu;
/** Cues that introduce a name as often as anything else: the name must be capitalised. */
const LOOSE_CUE = /(?:(?<![\p{L}])this is|(?<![\p{L}])soy|(?<![\p{L}])c['’]est|hier ist)\s+(?=[\p{Lu}])/gu;
/** A word of letters; one glued to digits ("PT50", the start of an IBAN) is not a name. */
const WORD = /^[\p{L}][\p{L}'’-]*(?![\p{L}\d])/u;
/** Words that follow the cue without being a name ("my name is not important"). */
const NOT_A_NAME = new Set([
  'not', 'the', 'a', 'an', 'on', 'in', 'is', 'and', 'but', 'actually', 'just', 'still', 'also', 'spelled', 'like', 'mister', 'miss', 'mrs', 'mr', 'doctor', 'dr',
  'no', 'es', 'el', 'la', 'y', 'pero', 'que', 'de', 'ne', 'pas', 'le', 'et', 'mais', 'nicht', 'und', 'aber', 'der', 'die', 'das',
  // After a loose cue: what "this is ..." and "c'est ..." introduce when it is not a name.
  'i', 'it', 'this', 'that', 'we', 'our', 'your', 'my', 'yes', 'ok', 'okay', 'sure', 'great', 'good', 'perfect', 'fine', 'correct', 'right',
  'bueno', 'vale', 'claro', 'perfecto', 'correcto', 'yo', 'su', 'mi', 'parfait', 'bon', 'bien', 'noté', 'ça', 'ca', 'moi', 'votre', 'mon',
]);
/** Particles inside a name ("María de la Cruz", "Ludwig van Beethoven"). */
const PARTICLE = new Set(['de', 'del', 'la', 'van', 'von', 'da', 'di', 'du', 'le']);

export function detectNames(input: DetectorInput, out: Finding[]): void {
  for (const cue of [CUE, LOOSE_CUE]) namesAfter(input.text, cue, out);
}

function namesAfter(text: string, cues: RegExp, out: Finding[]): void {
  cues.lastIndex = 0;
  for (let cue = cues.exec(text); cue !== null; cue = cues.exec(text)) {
    const start = cue.index + cue[0].length;
    if (out.some((found) => found.category === 'name' && found.start === start)) continue;
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
