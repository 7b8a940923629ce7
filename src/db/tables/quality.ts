import type { Generated } from 'kysely';
import type { Json, NullableTimestamp } from './column-types.ts';

// Quality (modules/quality, issue 28): Kysely's view of the scorecard tables (migration 0044).

export interface CampaignScorecardTable {
  campaign_id: number;
  owner_id: number;
  /** Scoring is off until the owner switches it on (an LLM costs money per call). */
  enabled: boolean;
  /** The card's criteria (scorecard-rules.ts Criterion[]). */
  criteria: Json;
  /** The problem tags the judge is asked about (PROBLEM_TAGS). */
  tags: string[];
  updated_at: Generated<Date>;
}

export interface CallScoreTable {
  call_id: number;
  owner_id: number;
  campaign_id: number;
  /** Copied from the call: the prompt version it used. */
  prompt_history_id: number | null;
  /** pending, scored, failed, needs_model (no LLM configured), no_transcript. */
  status: string;
  /** 0–100, only when scored. */
  score: number | null;
  /** Per criterion key: { answer, value, reason }. */
  answers: Json | null;
  tags: Generated<string[]>;
  /** The extractor's method (llm:<model>). */
  method: string | null;
  error: string | null;
  /** The card the call was judged on (its criteria and tags at the time). */
  card: Json | null;
  attempts: Generated<number>;
  due_at: Generated<Date>;
  claimed_by: string | null;
  lease_until: NullableTimestamp;
  created_at: Generated<Date>;
  scored_at: NullableTimestamp;
}

export interface QualityTables {
  campaign_scorecards: CampaignScorecardTable;
  call_scores: CallScoreTable;
}
