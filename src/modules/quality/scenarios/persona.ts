import type { Persona } from './scenario-templates.ts';
import { addUsage, type RunCost, type RunTurn } from './run-types.ts';

/**
 * The person on the phone in a test conversation: the language model playing the persona (a
 * separate chat completion with its own system prompt), or, without a model, the scripted persona
 * saying its lines in order. Either may hang up: the model by ending its words with HANG_UP, the
 * script after its last line.
 */
export interface PersonaLine {
  text: string;
  hangUp: boolean;
}

export interface PersonaPlayer {
  next(transcript: readonly RunTurn[], signal: AbortSignal): Promise<PersonaLine>;
}

export const HANG_UP = '[HANG UP]';
/** How the fake and real servers tell a persona request apart: its system prompt starts so. */
export const PERSONA_PROMPT_START = 'You are role-playing a person who has just answered a phone call';

export function personaSystemPrompt(persona: Persona): string {
  return [
    `${PERSONA_PROMPT_START} from a company's AI agent. This is a test conversation: stay in character, never mention a test.`,
    `Who you are: ${persona.who}`,
    `Your goal in this call: ${persona.goal}`,
    `How you talk: ${persona.style}`,
    `Speak only ${persona.language}.`,
    'Answer as that person would on the phone: one or two short spoken sentences, no stage directions, no narration.',
    `When you would end the call (your goal is reached, or you would hang up), end your words with ${HANG_UP}.`,
  ].join('\n');
}

export function scriptedPersona(lines: readonly string[]): PersonaPlayer {
  return {
    async next(transcript) {
      const said = transcript.filter((t) => t.role === 'persona').length;
      const text = lines[Math.min(said, lines.length - 1)] ?? 'Goodbye.';
      return { text, hangUp: said >= lines.length - 1 };
    },
  };
}

export interface LlmPersonaOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  persona: Persona;
  cost: RunCost;
}

/** The persona as a chat completion: the agent's words are the "user", the persona's own the "assistant". */
export function llmPersona(options: LlmPersonaOptions): PersonaPlayer {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const system = personaSystemPrompt(options.persona);
  return {
    async next(transcript, signal) {
      const spoken = transcript.filter((t): t is Extract<RunTurn, { text: string }> => t.role !== 'tool');
      const messages = [
        { role: 'system', content: system },
        ...(spoken.length === 0 || spoken[0]!.role === 'persona' ? [{ role: 'user', content: '(The phone rings and you pick up. Say your first words.)' }] : []),
        ...spoken.map((t) => ({ role: t.role === 'agent' ? 'user' : 'assistant', content: t.text })),
      ];
      options.cost.llm_requests++;
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify({ model: options.model, messages, temperature: 0.7 }),
        signal,
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`the persona's LLM answered HTTP ${response.status}: ${body.slice(0, 300)}`);
      let answer: { choices?: { message?: { content?: string | null } }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
      try {
        answer = JSON.parse(body);
      } catch {
        throw new Error(`the persona's LLM answer is not JSON: ${body.slice(0, 300)}`);
      }
      addUsage(options.cost, answer.usage);
      const content = (answer.choices?.[0]?.message?.content ?? '').trim();
      const hangUp = content.includes(HANG_UP);
      return { text: content.replace(HANG_UP, '').trim().slice(0, 2000), hangUp };
    },
  };
}
