import type { Extractor, PayloadSchema } from '../../../extraction/extractor.ts';
import { offlineVerdict } from './offline-checks.ts';
import { addUsage, type RunCost, type RunTurn, type Verdict } from './run-types.ts';

/**
 * The judge of a test conversation. With a model: the extraction pipeline (deps.extractor) with a
 * schema built for this run, one strict boolean field per criterion and one string field for its
 * reason, the transcript as its input (tool calls as lines of their own). Without one: the offline
 * checks (offline-checks.ts), null for what they cannot judge.
 */
export const criterionField = (i: number) => `criterion_${i + 1}`;
export const reasonField = (i: number) => `criterion_${i + 1}_reason`;

export function judgeSchema(criteria: readonly string[]): { schema: PayloadSchema; instructions: Record<string, string> } {
  const properties: PayloadSchema['properties'] = {};
  const instructions: Record<string, string> = {};
  criteria.forEach((criterion, i) => {
    properties[criterionField(i)] = { type: 'boolean', description: `Success criterion ${i + 1}: ${criterion}` };
    properties[reasonField(i)] = { type: 'string', description: `Why criterion ${i + 1} was judged so` };
    instructions[criterionField(i)] = `true if the agent met this success criterion in the conversation, false if it did not, null only if the transcript cannot tell: "${criterion}"`;
    instructions[reasonField(i)] = `one sentence saying why criterion ${i + 1} ("${criterion}") was judged so, quoting the transcript where it helps`;
  });
  return { schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, instructions };
}

/** The transcript as the extractor reads it: the agent is the assistant, the persona the user, each tool call a line. */
export function judgeTranscript(transcript: readonly RunTurn[]) {
  return transcript.map((t) => (t.role === 'tool'
    ? { role: 'tool', text: `[the agent called ${t.tool.name}: ${JSON.stringify(Object.fromEntries(Object.entries(t.tool).filter(([k]) => k !== 'name')))}]` }
    : { role: t.role === 'agent' ? 'assistant' : 'user', text: t.text }));
}

export async function judgeWithModel(extractor: Extractor, input: {
  criteria: readonly string[]; transcript: readonly RunTurn[]; contact: Record<string, unknown>; cost: RunCost; signal?: AbortSignal;
}): Promise<Verdict[]> {
  const { schema, instructions } = judgeSchema(input.criteria);
  input.cost.llm_requests++;
  const result = await extractor.extract({
    schema, instructions, transcript: judgeTranscript(input.transcript), contact: input.contact,
    call: { from_number: null, to_number: null, call_duration: null, start_time: null, end_time: null, call_type: 'test_scenario', action_status: null, status: 'completed' },
    ...(input.signal ? { signal: input.signal } : {}),
    onUsage: (usage) => addUsage(input.cost, usage),
    // A test run shares the LLM budget behind the customers' webhooks, as call scoring does.
    priority: 'later',
  });
  return input.criteria.map((criterion, i) => {
    const passed = result.payload[criterionField(i)];
    const reason = result.payload[reasonField(i)];
    return {
      criterion,
      passed: typeof passed === 'boolean' ? passed : null,
      reason: typeof reason === 'string' && reason.trim() ? reason.trim().slice(0, 1000) : 'the judge could not tell from the transcript',
    };
  });
}

export const judgeOffline = (criteria: readonly string[], transcript: readonly RunTurn[]): Verdict[] =>
  criteria.map((criterion) => offlineVerdict(criterion, transcript));
