import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// Experiments (modules/quality/experiments, issue 28): Kysely's view of what migration 0045 creates.
// calls.experiment_variant_id is declared with the calls table.

export interface ExperimentsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  name: string;
  /** draft, running (at most one per campaign), stopped. */
  status: Generated<string>;
  min_calls_per_variant: number;
  created_by_user_id: number | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  stopped_at: NullableTimestamp;
  promoted_variant_id: number | null;
  promoted_prompt_history_id: number | null;
  promoted_at: NullableTimestamp;
}

export interface ExperimentVariantsTable {
  id: Generated<number>;
  experiment_id: number;
  /** 0 is the control; 1..3 the variants, in the order given. */
  position: number;
  kind: string;
  label: string;
  weight: number;
  /** A prompt variant's version; the control's is set when the experiment starts. */
  prompt_history_id: number | null;
  /** An assistant variant's assistant (same route as the campaign's). */
  assistant_id: number | null;
}

export interface ExperimentsTables {
  experiments: ExperimentsTable;
  experiment_variants: ExperimentVariantsTable;
}
