import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

// The campaigns and their prompt history tables: Kysely's view of what the migrations in ../migrations create.

export interface CampaignsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  description: string | null;
  campaign_type: string;
  campaign_data: Json;
  campaign_phone: string | null;
  campaign_sip: string | null;
  /** Migration 0046: the account's SIP trunk whose credentials the campaign's calls use (issue 29). */
  sip_trunk_id: Generated<number | null>;
  assistant_id: number | null;
  max_call_attempts: number | null;
  concurrent_call_limit: Generated<number | null>;
  call_interval: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  call_allowed_from_time: string | null;
  call_allowed_to_time: string | null;
  work_schedule: Json;
  auto_calls: Generated<boolean>;
  is_auto_ai_message: Generated<boolean>;
  is_archive: Generated<boolean>;
  is_paused: Generated<boolean>;
  limit_start: NullableTimestamp;
  limit_end: NullableTimestamp;
  limit_value: number | null;
  limit_unit: string | null;
  limit_usage: Generated<number | null>;
  limit_reached: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PromptHistoryTable {
  id: Generated<number>;
  campaign_id: number;
  prompt_data: Json;
  status: string;
  created_at: Timestamp;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  approved_by_user_id: number | null;
  approved_by_sub_user_id: number | null;
  approved_at: NullableTimestamp;
  approval_comment: string | null;
}

export interface CampaignsTables {
  campaigns: CampaignsTable;
  prompt_history: PromptHistoryTable;
}

export type CampaignRow = Selectable<CampaignsTable>;
export type NewCampaign = Insertable<CampaignsTable>;
export type CampaignUpdate = Updateable<CampaignsTable>;
export type PromptHistoryRow = Selectable<PromptHistoryTable>;
