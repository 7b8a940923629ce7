import { Type, type Static } from 'typebox';
import { DateTime, Id, Limit, Nullable, Skip, StringEnum } from '../../../http/schemas.ts';
import { TEMPLATE_KEYS } from './scenario-templates.ts';

/** Test scenarios and their runs, as /api/v1/campaigns/{id}/test-scenarios reads and writes them. */

export const PersonaSchema = Type.Object({
  who: Type.String({ minLength: 1, maxLength: 500, description: 'who the person on the phone is' }),
  goal: Type.String({ minLength: 1, maxLength: 500, description: 'what they want from the call' }),
  style: Type.String({ maxLength: 300, description: 'how they talk (hurried, rude, friendly...)' }),
  language: Type.String({ minLength: 1, maxLength: 50, description: 'the language they speak, e.g. English' }),
}, { additionalProperties: false });

export const Criteria = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  minItems: 1, maxItems: 10, description: 'success criteria in plain words, e.g. "The agent offers a callback time" (1 to 10, each at most 300 characters)',
});

const SampleValue = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]);
export const SampleContact = Type.Record(Type.String({ maxLength: 100 }), SampleValue, {
  maxProperties: 50,
  description: 'a sample contact\'s data: fills the prompt\'s {{contact.*}} placeholders as a real contact\'s would (phone_number, when given, is the number the agent calls; default +15555550100)',
});

const TemplateKey = StringEnum(TEMPLATE_KEYS, { description: `a ready-made scenario (GET /api/v1/test-scenario-templates): ${TEMPLATE_KEYS.join(', ')}` });
const MaxTurns = Type.Integer({ minimum: 1, maximum: 30, description: 'the most times the persona speaks before the conversation is cut (default 12)' });

export const ScenarioCreate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default: the ready-made scenario\'s name' })),
  template: Type.Optional(TemplateKey),
  persona: Type.Optional(PersonaSchema),
  criteria: Type.Optional(Criteria),
  contact_data: Type.Optional(Nullable(SampleContact)),
  max_turns: Type.Optional(MaxTurns),
}, { additionalProperties: false });
export type ScenarioCreate = Static<typeof ScenarioCreate>;

export const ScenarioUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  persona: Type.Optional(PersonaSchema),
  criteria: Type.Optional(Criteria),
  contact_data: Type.Optional(Nullable(SampleContact)),
  max_turns: Type.Optional(MaxTurns),
}, { additionalProperties: false });
export type ScenarioUpdate = Static<typeof ScenarioUpdate>;

export const Scenario = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  name: Type.String(),
  template: Nullable(Type.String(), { description: 'the ready-made scenario it was made from; null: written by hand' }),
  persona: PersonaSchema,
  criteria: Type.Array(Type.String()),
  contact_data: Nullable(Type.Object({}, { additionalProperties: true })),
  max_turns: Type.Integer(),
  created_at: DateTime,
  updated_at: DateTime,
});

export type Scenario = Static<typeof Scenario>;
export const ScenarioList = Type.Object({ items: Type.Array(Scenario) });

export const ScenarioParams = Type.Object({ id: Id, scenario_id: Id });
export const RunParams = Type.Object({ id: Id, run_id: Id });

export const RunCreate = Type.Object({
  prompt_history_id: Type.Optional(Nullable(Id, { description: 'a prompt_history entry of this campaign to test (a pending one, before it is approved); default: the prompt calls use now' })),
  contact_data: Type.Optional(Nullable(SampleContact)),
}, { additionalProperties: false });
export type RunCreate = Static<typeof RunCreate>;

const RUN_STATUSES = ['queued', 'running', 'passed', 'failed', 'inconclusive', 'error'] as const;

const Turn = Type.Object({
  role: StringEnum(['agent', 'persona', 'tool'] as const),
  text: Type.Optional(Type.String()),
  tool: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: true, description: 'a tool the agent called: end_call, do_not_call, mark_outcome, transfer_call, with its arguments' })),
});

const Verdict = Type.Object({
  criterion: Type.String(),
  passed: Nullable(Type.Boolean(), { description: 'null: not judged (reason says why)' }),
  reason: Type.String(),
});

export const Run = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  scenario_id: Type.Integer(),
  prompt_history_id: Nullable(Type.Integer(), { description: 'the prompt_history entry whose prompt the agent used; null: the campaign had no history' }),
  status: StringEnum(RUN_STATUSES),
  judge: Nullable(StringEnum(['llm', 'offline'] as const), { description: 'llm: the model judged every criterion; offline: the offline checks, null for criteria they cannot judge' }),
  prompt_text: Nullable(Type.String(), { description: 'the campaign prompt used, placeholders filled' }),
  system_prompt_source: Nullable(StringEnum(['assistant', 'campaign', 'default'] as const), { description: 'where the agent\'s system prompt came from, as on a call: the assistant\'s own, else the campaign\'s prompt, else the default' }),
  contact_data: Nullable(Type.Object({}, { additionalProperties: true })),
  transcript: Type.Array(Turn),
  verdicts: Type.Array(Verdict),
  ended_by: Nullable(StringEnum(['agent', 'transfer', 'persona', 'max_turns', 'time_limit', 'agent_error'] as const)),
  cost: Type.Object({
    llm_requests: Type.Integer(), prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(),
    duration_ms: Nullable(Type.Integer()),
  }, { description: 'what the run spent: LLM requests (agent turns, persona turns, the judge) and the tokens the server reported' }),
  error: Nullable(Type.String()),
  created_by_user_id: Nullable(Type.Integer()),
  created_by_sub_user_id: Nullable(Type.Integer()),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
});

export type Run = Static<typeof Run>;
export const RunList = Type.Object({ items: Type.Array(Run) });
export const RunListQuery = Type.Object({ skip: Skip, limit: Limit(50) });

export const Template = Type.Object({
  key: Type.String(),
  name: Type.String(),
  persona: PersonaSchema,
  criteria: Type.Array(Type.String()),
  offline_checkable: Type.Array(Type.Boolean(), { description: 'per criterion: whether the offline checks judge it without a language model' }),
});
export const TemplateList = Type.Object({
  items: Type.Array(Template),
  model_configured: Type.Boolean({ description: 'whether LLM_BASE_URL is set: the persona, the agent and the judge are the model; otherwise scripted persona, scripted demo agent and offline checks' }),
});

export const GateSettings = Type.Object({
  require_scenarios_before_approval: Type.Boolean(),
  updated_at: Nullable(DateTime),
});
export const GateSettingsUpdate = Type.Object({ require_scenarios_before_approval: Type.Boolean() }, { additionalProperties: false });
export type GateSettingsUpdate = Static<typeof GateSettingsUpdate>;
