import type { AgentBrain, AgentOutput, AgentTurnInput } from './agent-brain.ts';

/**
 * The demo agent, used when no LLM is configured (LLM_BASE_URL unset): after the greeting it asks
 * one yes/no question, records the answer (yes = interested) and ends the call. It makes the
 * Twilio path work offline and in tests; it is not a conversation (the README says so).
 */
export const SCRIPTED_QUESTION = 'Would you like us to follow up with you? Please answer yes or no.';
const YES = /\b(yes|yeah|yep|sure|ok(ay)?|of course|interested|please do|sí|si|oui|ja)\b/i;
const NO = /\b(no|nope|not interested|no thanks|don'?t|non|nein)\b/i;

export class ScriptedBrain implements AgentBrain {
  readonly kind = 'scripted';

  async *reply(input: AgentTurnInput): AsyncIterable<AgentOutput> {
    const asked = input.turns.some((t) => t.role === 'assistant' && t.text === SCRIPTED_QUESTION);
    if (!asked) {
      yield* words(SCRIPTED_QUESTION);
      return;
    }
    const answer = [...input.turns].reverse().find((t) => t.role === 'user')?.text ?? '';
    const yes = YES.test(answer) && !NO.test(answer);
    yield { type: 'tool', call: { name: 'mark_outcome', outcome: yes ? 'interested' : 'not_interested', time: null, note: `answered: ${answer.slice(0, 200)}` } };
    yield* words(yes ? 'Thank you, we will be in touch. Goodbye.' : 'Thank you for your time. Goodbye.');
    yield { type: 'tool', call: { name: 'end_call', reason: 'the scripted question was answered' } };
  }
}

/** Spoken a word at a time, as a model streams. */
function* words(text: string): Iterable<AgentOutput> {
  for (const word of text.match(/\S+\s*/g) ?? []) yield { type: 'text', token: word };
}
