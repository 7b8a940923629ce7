import type { TranscriptTurn } from './extractor.ts';

/**
 * A plain extractive summary: the first few substantive sentences of the conversation,
 * word for word, labelled by speaker. Without a model nothing can be paraphrased, but
 * the sentences that carry the questions and answers still tell a CRM user what the call
 * was about; greetings, introductions and one-word fillers are left out because they
 * would crowd those out of the bounded length. Deterministic: same transcript, same text.
 */
export const SUMMARY_MAX_CHARS = 400;
export const SUMMARY_MAX_SENTENCES = 4;

/** Words that carry nothing on their own; a sentence made only of these is a pleasantry. */
const FILLER = new Set([
  'hello', 'hi', 'hey', 'good', 'morning', 'afternoon', 'evening', 'day', 'thanks', 'thank', 'you', 'bye', 'goodbye',
  'ok', 'okay', 'yes', 'yeah', 'yep', 'no', 'sure', 'great', 'fine', 'alright', 'right', 'well', 'oh', 'um', 'uh', 'hmm',
  'have', 'a', 'nice', 'the', 'too', 'so', 'much', 'very', 'perfect', 'excellent', 'wonderful', 'bye-bye', 'mm',
]);
/** An assistant saying who it is: part of every call, so no information about this one. */
const INTRODUCTION = /\b(this is|my name is|i'm calling from|i am calling from|calling from|speaking)\b/i;

function speakerOf(role: string): string | null {
  if (role === 'system') return null;
  if (role === 'assistant') return 'Assistant';
  // A transcript stored as one string has no speakers to name.
  if (role === 'transcript') return '';
  return 'Contact';
}

/** Sentences end at . ! ? or … followed by a space, so e-mail addresses and decimals stay whole. */
const sentencesOf = (text: string) => text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?…])\s+/).filter(Boolean);

function substantive(sentence: string, speaker: string): boolean {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  if (words.length < 3) return false;
  if (words.filter((w) => !FILLER.has(w)).length < 2) return false;
  return !(speaker === 'Assistant' && INTRODUCTION.test(sentence));
}

/** Cuts at the last word boundary that fits, marking the cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The summary, or null when no turn has a substantive sentence. */
export function extractiveSummary(transcript: TranscriptTurn[], maxChars = SUMMARY_MAX_CHARS, maxSentences = SUMMARY_MAX_SENTENCES): string | null {
  const parts: string[] = [];
  let length = 0;
  let taken = 0;
  let lastSpeaker: string | null = null;
  for (const turn of transcript) {
    const speaker = speakerOf(turn.role);
    if (speaker === null) continue;
    for (const sentence of sentencesOf(turn.text)) {
      if (taken >= maxSentences) break;
      if (!substantive(sentence, speaker)) continue;
      // The label is written only when the speaker changes, as in a script.
      const part = speaker && speaker !== lastSpeaker ? `${speaker}: ${sentence}` : sentence;
      const extra = (parts.length > 0 ? 1 : 0) + part.length;
      if (parts.length > 0 && length + extra > maxChars) return parts.join(' ');
      parts.push(part);
      length += extra;
      taken++;
      lastSpeaker = speaker;
    }
  }
  return parts.length > 0 ? clip(parts.join(' '), maxChars) : null;
}
