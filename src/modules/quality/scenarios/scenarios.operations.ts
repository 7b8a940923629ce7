import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams } from '../../../http/schemas.ts';
import {
  GateSettings, GateSettingsUpdate, Run, RunCreate, RunList, RunListQuery, RunParams, Scenario, ScenarioCreate, ScenarioList, ScenarioParams, ScenarioUpdate, TemplateList,
} from './scenarios.schemas.ts';

/** OpenAPI operations of test scenarios (tag test-scenarios). */
const tags = ['test-scenarios'];
const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user, who may write and run its scenarios too (another account\'s campaign is 403, an unknown id 404).';

export const TEST_SCENARIOS_DOC =
  'A test scenario proves a campaign\'s agent before it calls people: a persona (who the caller is, what they want, how they talk, in which language) and success ' +
  'criteria in plain words. A run plays a whole text conversation between the campaign\'s agent and the persona, then a judge scores each criterion. ' +
  'The agent is the conversation engine of a real call on our Twilio agent (the same AgentBrain, system prompt, tools and placeholders: the assistant\'s system prompt, ' +
  'else the campaign\'s prompt with the sample contact\'s data filled in); end_call ends the conversation, transfer_call ends it when the assistant has a transfer number, ' +
  'do_not_call and mark_outcome are kept in the transcript as the agent\'s tool calls. For Vapi and Retell assistants the run uses our engine with the assistant\'s prompt ' +
  '(their own chat/test APIs are a later step), so it tests the prompt, not the vendor\'s voice pipeline. The persona is the language model (its own chat completion); ' +
  'it may hang up; the conversation stops after max_turns persona turns or SCENARIO_RUN_TIMEOUT_SECONDS. The judge is the extraction pipeline with one strict boolean ' +
  'and one reason per criterion. Without a language model (LLM_BASE_URL unset) the agent is the scripted demo agent, the persona says the scenario\'s scripted lines, and ' +
  'offline checks judge the criteria they can from the transcript and the tool calls (stops when asked not to be called: do_not_call and the call ended; offers a ' +
  'callback: mark_outcome scheduled with a time; transfers to a human: transfer_call; ends the call politely: end_call after a goodbye; within N turns; does (not) ' +
  'mention "X"; keeps answers short); the rest are null with the reason "needs a language model (set LLM_BASE_URL)": a model adds the persona\'s free answers, ' +
  'the real agent and a verdict on tone, content and honesty. The stored transcript is redacted by the campaign\'s redaction rule where it covers transcripts, ' +
  'and the judge reads it as stored.';

export const ListTemplates = {
  operationId: 'list_test_scenario_templates', tags, summary: 'List the ready-made test scenarios',
  description: 'The ready-made scenarios (busy person, asks to be removed, interested, wrong person, asks for a human, voicemail greeting, hostile), each with its persona ' +
    'and criteria; create one with POST /api/v1/campaigns/{id}/test-scenarios and `template`. offline_checkable says, per criterion, whether it is judged without a model. ' + TEST_SCENARIOS_DOC,
  response: { 200: TemplateList, 401: Detail },
} as const;

export const ListScenarios = {
  operationId: 'list_test_scenarios', tags, summary: 'List a campaign\'s test scenarios', description: `Oldest first. ${ACCESS}`,
  params: IdParams, response: { 200: ScenarioList, ...ErrorResponses },
} as const;

export const CreateScenario = {
  operationId: 'create_test_scenario', tags, summary: 'Write a test scenario for a campaign',
  description: 'With `template` (a ready-made scenario\'s key) the persona, criteria and name come from it unless the body gives them; without one, persona and criteria ' +
    `are required (422). Criteria: 1 to 10, each at most 300 characters. ${ACCESS} ${TEST_SCENARIOS_DOC}`,
  params: IdParams, body: ScenarioCreate, response: { 200: Scenario, ...ErrorResponses },
} as const;

export const GetScenario = {
  operationId: 'read_test_scenario', tags, summary: 'Read a test scenario', description: ACCESS,
  params: ScenarioParams, response: { 200: Scenario, ...ErrorResponses },
} as const;

export const UpdateScenario = {
  operationId: 'update_test_scenario', tags, summary: 'Change a test scenario',
  description: `Fields left out keep their value. A run made before the change no longer counts for the approval gate. ${ACCESS}`,
  params: ScenarioParams, body: ScenarioUpdate, response: { 200: Scenario, ...ErrorResponses },
} as const;

export const DeleteScenario = {
  operationId: 'delete_test_scenario', tags, summary: 'Delete a test scenario and its runs', description: ACCESS,
  params: ScenarioParams, response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
} as const;

export const CreateRun = {
  operationId: 'run_test_scenario', tags, summary: 'Run a test scenario (queued, answered 202)',
  description: 'Queues a run; the scenario runner plays it (SCENARIO_RUN_CONCURRENCY at once per process) and GET .../test-runs/{run_id} shows it. prompt_history_id ' +
    'tests that entry of the campaign\'s prompt history (a pending one, before it is approved; 404 for another campaign\'s); without it, the prompt calls use now, ' +
    'and the run records that entry\'s id. contact_data: the sample contact (default: the scenario\'s). An account with SCENARIO_RUNS_QUEUED_MAX runs queued or ' +
    `running gets 429. ${ACCESS} ${TEST_SCENARIOS_DOC}`,
  params: ScenarioParams, body: RunCreate, response: { 202: Run, ...ErrorResponses, 429: Detail },
} as const;

export const ListScenarioRuns = {
  operationId: 'list_test_scenario_runs', tags, summary: 'List a test scenario\'s runs', description: `Newest first. ${ACCESS}`,
  params: ScenarioParams, querystring: RunListQuery, response: { 200: RunList, ...ErrorResponses },
} as const;

export const ListCampaignRuns = {
  operationId: 'list_campaign_test_runs', tags, summary: 'List the test runs of a campaign\'s scenarios', description: `Newest first. ${ACCESS}`,
  params: IdParams, querystring: RunListQuery, response: { 200: RunList, ...ErrorResponses },
} as const;

export const GetRun = {
  operationId: 'read_test_run', tags, summary: 'Read a test run: the conversation, each criterion\'s verdict and the cost',
  description: `status: queued, running, then passed (every criterion met), failed (any not met), inconclusive (none failed, some not judged) or error (error says why). ${ACCESS}`,
  params: RunParams, response: { 200: Run, ...ErrorResponses },
} as const;

const GATE_DOC = 'require_scenarios_before_approval (default false): when true, approving a pending prompt (POST /api/v1/campaigns/{id}/prompt-history/{history_id}/approve) ' +
  'is refused with 409 until every test scenario of the campaign has a passed run against that prompt_history entry; rejecting is never blocked.';

export const ReadGate = {
  operationId: 'read_test_scenario_settings', tags, summary: 'Read whether prompts need passed test scenarios before approval',
  description: `${GATE_DOC} Sub-users read it.`, response: { 200: GateSettings, ...ErrorResponses },
} as const;

export const UpdateGate = {
  operationId: 'update_test_scenario_settings', tags, summary: 'Choose whether prompts need passed test scenarios before approval (owner only, audited)',
  description: `${GATE_DOC} Only the account owner changes it (a sub-user: 403); audited (quality.scenario_gate_changed).`,
  body: GateSettingsUpdate, response: { 200: GateSettings, ...ErrorResponses },
} as const;
