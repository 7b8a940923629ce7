import type { Generated } from 'kysely';
import type { Json, NullableTimestamp } from './column-types.ts';

// Test scenarios (modules/quality/scenarios, issue 28): Kysely's view of what migration 0043 creates.

export interface TestScenariosTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  name: string;
  /** The ready-made scenario it was made from (scenario-templates.ts); null: written by hand. */
  template: string | null;
  /** {who, goal, style, language}. */
  persona: Json;
  /** The success criteria in plain words, in order. */
  criteria: Json;
  /** The sample contact whose data fills the prompt's placeholders; null: none. */
  contact_data: Json;
  max_turns: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TestScenarioRunsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  scenario_id: number;
  prompt_history_id: number | null;
  status: Generated<string>;
  /** 'llm' (the judge through the extractor) or 'offline' (checks from the transcript and tools). */
  judge: string | null;
  prompt_text: string | null;
  system_prompt_source: string | null;
  contact_data: Json;
  transcript: Json;
  verdicts: Json;
  ended_by: string | null;
  llm_requests: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  duration_ms: number | null;
  error: string | null;
  locked_by: string | null;
  locked_at: NullableTimestamp;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface TestScenarioSettingsTable {
  owner_id: number;
  require_scenarios_before_approval: boolean;
  updated_at: Generated<Date>;
}

export interface QualityScenariosTables {
  test_scenarios: TestScenariosTable;
  test_scenario_runs: TestScenarioRunsTable;
  test_scenario_settings: TestScenarioSettingsTable;
}

