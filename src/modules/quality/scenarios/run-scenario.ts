import type { Deps } from '../../../deps.ts';
import type { AgentBrain } from '../../agent/agent-brain.ts';
import { LlmBrain } from '../../agent/llm-brain.ts';
import { ScriptedBrain } from '../../agent/scripted-brain.ts';
import { playConversation } from './conversation.ts';
import { judgeOffline, judgeWithModel } from './judge.ts';
import { llmPersona, scriptedPersona } from './persona.ts';
import type { ClaimedRun, FinishedRun } from './run-claims.ts';
import { loadRunPlan } from './run-plan.ts';
import { newCost, resultOf, type RunTurn } from './run-types.ts';
import { scriptFor, type Persona } from './scenario-templates.ts';

/**
 * Plays one claimed run: the plan (run-plan.ts), the conversation within the time limit, the
 * transcript redacted by the campaign's rule (as a call's is stored, and the judge reads it as
 * stored), then the judge. With LLM_BASE_URL the agent is LlmBrain, the persona and the judge
 * the model; without, the scripted demo agent, the scripted persona and the offline checks.
 * `stop` aborts the conversation when the worker stops.
 */
export async function runScenario(deps: Deps, run: ClaimedRun, stop: AbortSignal): Promise<FinishedRun> {
  const started = Date.now();
  const cost = newCost();
  const persona = run.persona as Persona;
  const criteria = run.criteria as string[];
  const plan = await loadRunPlan(deps, run, run.max_turns);
  const { LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey } = deps.config;
  const model = plan.model ?? 'default';
  const brain: AgentBrain = baseUrl ? new LlmBrain({ baseUrl, apiKey, model }) : new ScriptedBrain();
  const player = baseUrl ? llmPersona({ baseUrl, apiKey, model, persona, cost }) : scriptedPersona(scriptFor(run.template, persona));
  const limit = AbortSignal.any([stop, AbortSignal.timeout(deps.config.SCENARIO_RUN_TIMEOUT_SECONDS * 1000)]);
  const base = { promptText: plan.promptText, systemPromptSource: plan.systemPromptSource };
  let transcript: RunTurn[] = [];
  try {
    const played = await playConversation(plan, brain, player, cost, limit);
    transcript = plan.redactor ? redacted(played.transcript, plan.redactor.redact) : played.transcript;
    const byModel = deps.extractor.name !== 'offline';
    const verdicts = byModel
      ? await judgeWithModel(deps.extractor, { criteria, transcript, contact: run.contact_data ?? {}, cost, signal: stop })
      : judgeOffline(criteria, transcript);
    return { ...base, status: resultOf(verdicts), judge: byModel ? 'llm' : 'offline', transcript, verdicts, endedBy: played.endedBy, cost, durationMs: Date.now() - started, error: null };
  } catch (error) {
    return {
      ...base, status: 'error', judge: null, transcript, verdicts: [], endedBy: null, cost, durationMs: Date.now() - started,
      error: (error as Error).message.slice(0, 1000),
    };
  }
}

function redacted(transcript: RunTurn[], redact: (text: string) => { text: string }): RunTurn[] {
  return transcript.map((t) => (t.role === 'tool'
    ? { role: 'tool', tool: { ...t.tool, ...('reason' in t.tool ? { reason: redact(t.tool.reason).text } : {}), ...('note' in t.tool && t.tool.note ? { note: redact(t.tool.note).text } : {}) } as typeof t.tool }
    : { role: t.role, text: redact(t.text).text }));
}
