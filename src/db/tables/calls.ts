import type { Generated, Insertable, Selectable } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

// The calls tables: Kysely's view of what the migrations in ../migrations create.

export interface CallsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  contact_id: number;
  status: string;
  is_archive: Generated<boolean>;
  action_status: string | null;
  action_status_reason: string | null;
  from_number: string | null;
  to_number: string | null;
  start_time: NullableTimestamp;
  end_time: NullableTimestamp;
  cost: number | null;
  call_duration: number | null;
  external_session_id: string | null;
  record_url: string | null;
  call_data: Json;
  contact_data: Json;
  campaign_title: string | null;
  call_type: string | null;
  call_ended_by: string | null;
  call_ended_by_reason: string | null;
  /** Migration 0013: the voice provider the call went through (null on calls written before). */
  provider: string | null;
  /** Migration 0013: the account's voice connection whose credentials placed it; null = the service's. */
  voice_connection_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0038: when retention or an erasure emptied its personal fields; null: not yet. */
  personal_data_purged_at: Generated<Date | null>;
  /** Migration 0042: the prompt_history entry the call used; null: the campaign had no prompt history. */
  prompt_history_id: Generated<number | null>;
  /** Migration 0045: the experiment variant the call was given (experiments); null: none ran. */
  experiment_variant_id: Generated<number | null>;
}

/** Migration 0021: signed numbers of calls per key, appended by triggers on calls; a key's count is the sum of its rows. */
export interface CallCountsTable {
  owner_id: number;
  campaign_id: number;
  status: string;
  calls: number;
}

export interface CallsTables {
  calls: CallsTable;
  call_counts: CallCountsTable;
}

export type CallRow = Selectable<CallsTable>;
export type NewCall = Insertable<CallsTable>;
