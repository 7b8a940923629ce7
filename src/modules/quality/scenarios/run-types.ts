import type { AgentToolCall } from '../../agent/agent-brain.ts';

/** One entry of a run's transcript: a spoken turn, or a tool the agent called (as on a call). */
export type RunTurn =
  | { role: 'agent' | 'persona'; text: string }
  | { role: 'tool'; tool: AgentToolCall };

/** Why the conversation stopped. */
export type EndedBy = 'agent' | 'transfer' | 'persona' | 'max_turns' | 'time_limit' | 'agent_error';

/** A criterion's verdict: passed null when it could not be judged (reason says why). */
export interface Verdict {
  criterion: string;
  passed: boolean | null;
  reason: string;
}

export type RunResult = 'passed' | 'failed' | 'inconclusive';

/** Every criterion met: passed; any not met: failed; otherwise (some not judged): inconclusive. */
export function resultOf(verdicts: readonly Verdict[]): RunResult {
  if (verdicts.some((v) => v.passed === false)) return 'failed';
  if (verdicts.length > 0 && verdicts.every((v) => v.passed === true)) return 'passed';
  return 'inconclusive';
}

export const NEEDS_MODEL = 'needs a language model (set LLM_BASE_URL)';

/** What a run spent on the language model, from the usage the server reported. */
export interface RunCost {
  llm_requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export const newCost = (): RunCost => ({ llm_requests: 0, prompt_tokens: 0, completion_tokens: 0 });

export function addUsage(cost: RunCost, usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | null | undefined): void {
  if (!usage) return;
  cost.prompt_tokens += Math.max(0, Math.trunc(usage.prompt_tokens ?? 0));
  cost.completion_tokens += Math.max(0, Math.trunc(usage.completion_tokens ?? 0));
}
