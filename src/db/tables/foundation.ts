import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Kysely's view of the tables created by the migrations in ./migrations. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json = ColumnType<unknown, string | undefined | null, string | null>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  hashed_password: string;
  full_name: string | null;
  is_superuser: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
}

export interface SubUsersTable {
  id: Generated<number>;
  owner_id: number;
  username: string;
  email: string | null;
  full_name: string | null;
  hashed_password: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  owner_id: number;
  name: string | null;
  key_prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface CampaignsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  description: string | null;
  campaign_type: string;
  campaign_data: Json;
  campaign_phone: string | null;
  campaign_sip: string | null;
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

export interface CampaignSubUsersTable {
  campaign_id: number;
  sub_user_id: number;
}

export interface PhoneNumbersTable {
  id: Generated<number>;
  owner_id: number;
  phone_number: string;
  country_code: string | null;
  campaign_id: number | null;
  created_at: Timestamp;
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

export interface ContactsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  phone_number: string;
  status: string;
  contact_data: Json;
  timezone: string | null;
  source: string | null;
  creation_method: string | null;
  calls_attempts: Generated<number>;
  message_attempts: Generated<number>;
  next_action_time: NullableTimestamp;
  next_action_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

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
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Failed logins per key within a window (migration 0008). */
export interface LoginFailuresTable {
  key: string;
  failures: number;
  first_at: Timestamp;
}

export interface FoundationTables {
  users: UsersTable;
  login_failures: LoginFailuresTable;
  sub_users: SubUsersTable;
  api_keys: ApiKeysTable;
  campaigns: CampaignsTable;
  campaign_sub_users: CampaignSubUsersTable;
  phone_numbers: PhoneNumbersTable;
  prompt_history: PromptHistoryTable;
  contacts: ContactsTable;
  calls: CallsTable;
}

export type UserRow = Selectable<UsersTable>;
export type SubUserRow = Selectable<SubUsersTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type NewCampaign = Insertable<CampaignsTable>;
export type CampaignUpdate = Updateable<CampaignsTable>;
export type ContactRow = Selectable<ContactsTable>;
export type NewContact = Insertable<ContactsTable>;
export type CallRow = Selectable<CallsTable>;
export type NewCall = Insertable<CallsTable>;
export type PhoneNumberRow = Selectable<PhoneNumbersTable>;
export type PromptHistoryRow = Selectable<PromptHistoryTable>;
