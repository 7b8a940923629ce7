import type { TranscriptTurn } from '../../voice/provider.ts';

/**
 * Who answers on a call our agent holds: a language model (LLM_BASE_URL), or without one the
 * scripted demo agent. A reply is a stream: each text token is spoken as soon as it arrives
 * (Twilio turns it into speech), then the tools the model called, in order.
 */
export type AgentOutput =
  | { type: 'text'; token: string }
  | { type: 'tool'; call: AgentToolCall };

export type AgentToolCall =
  | { name: 'end_call'; reason: string }
  | { name: 'transfer_call'; reason: string }
  | { name: 'mark_outcome'; outcome: 'interested' | 'scheduled' | 'not_interested'; time: string | null; note: string | null }
  | { name: 'do_not_call'; reason: string };

export interface AgentTurnInput {
  /** The system prompt: the assistant's (placeholders filled), else the campaign's, else a default. */
  system: string;
  /** What operators whispered during the call, oldest first: system messages after the system prompt. */
  guidance?: string[];
  /** The conversation so far, the caller's last words last. */
  turns: TranscriptTurn[];
  /** The assistant's model (LLM_MODEL when the assistant names none). */
  model: string | null;
  /** Whether the assistant has a transfer number (else the transfer tool is not offered). */
  canTransfer: boolean;
  /**
   * Told the token usage the model's server reports (a test scenario's run counts its cost). Given,
   * the request asks for it (stream_options.include_usage); a live call does not ask.
   */
  onUsage?: (usage: { prompt_tokens?: number; completion_tokens?: number }) => void;
}

export interface AgentBrain {
  readonly kind: 'llm' | 'scripted';
  reply(input: AgentTurnInput, signal: AbortSignal): AsyncIterable<AgentOutput>;
}

/** The tools, as OpenAI-compatible function definitions; the model may call them while it talks. */
export function agentTools(canTransfer: boolean) {
  const fn = (name: string, description: string, properties: Record<string, unknown>, required: string[]) => ({
    type: 'function' as const,
    function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
  });
  return [
    fn('end_call', 'End the call after your last sentence (say goodbye first).', { reason: { type: 'string' } }, []),
    ...(canTransfer ? [fn('transfer_call', 'Transfer the caller to a person, when they ask for one or need what you cannot give.', { reason: { type: 'string' } }, [])] : []),
    fn('do_not_call', 'The person asked not to be called again (stop calling, remove me from your list): record it, confirm politely, then end the call.', { reason: { type: 'string' } }, []),
    fn('mark_outcome', 'Record the outcome of the call as soon as it is clear.', {
      outcome: { type: 'string', enum: ['interested', 'scheduled', 'not_interested'] },
      time: { type: 'string', description: 'for scheduled: the agreed date and time, ISO 8601' },
      note: { type: 'string' },
    }, ['outcome']),
  ];
}

/** A tool call as the model sent it, checked: unknown tools and bad arguments are dropped. */
export function toolCallOf(name: string, args: unknown): AgentToolCall | null {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 500) : null);
  if (name === 'end_call') return { name, reason: text(a.reason) ?? 'the assistant ended the call' };
  if (name === 'transfer_call') return { name, reason: text(a.reason) ?? 'the caller asked for a person' };
  if (name === 'do_not_call') return { name, reason: text(a.reason) ?? 'asked not to be called again' };
  if (name === 'mark_outcome' && (a.outcome === 'interested' || a.outcome === 'scheduled' || a.outcome === 'not_interested')) {
    return { name, outcome: a.outcome, time: text(a.time), note: text(a.note) };
  }
  return null;
}

export const DEFAULT_SYSTEM_PROMPT =
  'You are a friendly, brief phone assistant. Speak in short sentences: your words are read aloud. ' +
  'Record the outcome with mark_outcome once it is clear, and end the call politely with end_call.';
