import type { TranscriptTurn } from '../../../voice/provider.ts';
import type { AgentBrain, AgentToolCall } from '../../agent/agent-brain.ts';
import type { PersonaPlayer } from './persona.ts';
import { addUsage, type EndedBy, type RunCost, type RunTurn } from './run-types.ts';

/**
 * One test conversation, as text: the campaign's agent (the same AgentBrain, system prompt and
 * tools as a call our Twilio agent holds, relay-session.ts) and the persona take turns until the
 * agent ends the call (end_call, or transfer_call when the assistant has a transfer number: as on
 * a call), the persona hangs up, the persona has spoken maxTurns times, or the time limit aborts
 * `signal`. Tool calls are kept in the transcript where the agent made them. As on a call, the
 * assistant's first message opens; without one, the person speaks first (they picked up).
 */
export interface ConversationPlan {
  system: string;
  firstMessage: string | null;
  model: string | null;
  canTransfer: boolean;
  maxTurns: number;
}

export interface ConversationResult {
  transcript: RunTurn[];
  endedBy: EndedBy;
}

const spokenTurns = (transcript: readonly RunTurn[]): TranscriptTurn[] =>
  transcript.flatMap((t) => (t.role === 'tool' ? [] : [{ role: t.role === 'agent' ? 'assistant' as const : 'user' as const, text: t.text }]));

export async function playConversation(plan: ConversationPlan, brain: AgentBrain, persona: PersonaPlayer, cost: RunCost, signal: AbortSignal): Promise<ConversationResult> {
  const transcript: RunTurn[] = [];
  if (plan.firstMessage) transcript.push({ role: 'agent', text: plan.firstMessage });
  // An abort (the time limit) ends the conversation where it is; any other failure is the run's error.
  const timedOut = (error: unknown) => {
    if (signal.aborted) return true;
    throw error;
  };
  for (let said = 0; said < plan.maxTurns; said++) {
    if (signal.aborted) return { transcript, endedBy: 'time_limit' };
    let line;
    try {
      line = await persona.next(transcript, signal);
    } catch (error) {
      if (timedOut(error)) return { transcript, endedBy: 'time_limit' };
      throw error;
    }
    if (line.text) transcript.push({ role: 'persona', text: line.text });
    if (line.hangUp) return { transcript, endedBy: 'persona' };

    let text = '';
    const tools: AgentToolCall[] = [];
    if (brain.kind === 'llm') cost.llm_requests++;
    try {
      const input = {
        system: plan.system, turns: spokenTurns(transcript), model: plan.model, canTransfer: plan.canTransfer,
        ...(brain.kind === 'llm' ? { onUsage: (usage: Parameters<typeof addUsage>[1]) => addUsage(cost, usage) } : {}),
      };
      for await (const output of brain.reply(input, signal)) {
        if (output.type === 'text') text += output.token;
        else tools.push(output.call);
      }
    } catch (error) {
      if (timedOut(error)) return { transcript, endedBy: 'time_limit' };
      throw error;
    }
    if (text.trim()) transcript.push({ role: 'agent', text: text.trim() });
    for (const tool of tools) transcript.push({ role: 'tool', tool });
    if (tools.some((t) => t.name === 'transfer_call') && plan.canTransfer) return { transcript, endedBy: 'transfer' };
    if (tools.some((t) => t.name === 'end_call')) return { transcript, endedBy: 'agent' };
  }
  return { transcript, endedBy: 'max_turns' };
}
