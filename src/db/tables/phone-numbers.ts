import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// The an account's phone numbers tables: Kysely's view of what the migrations in ../migrations create.

export interface PhoneNumbersTable {
  id: Generated<number>;
  owner_id: number;
  phone_number: string;
  country_code: string | null;
  campaign_id: number | null;
  /** Migration 0013: the vendor's id of this number where the vendor dials by id (Vapi's phoneNumberId). */
  provider_number_id: string | null;
  /** Migration 0017: outbound calls from this number per rolling 24 hours (null = no cap). */
  daily_cap: number | null;
  created_at: Timestamp;
}

export interface PhoneNumbersTables {
  phone_numbers: PhoneNumbersTable;
  number_health_settings: NumberHealthSettingsTable;
  phone_number_health: PhoneNumberHealthTable;
}

export type PhoneNumberRow = Selectable<PhoneNumbersTable>;

/** Migration 0036: an account's number-health rule (no row: the defaults, modules/phone-numbers/number-health.rule.ts). */
export interface NumberHealthSettingsTable {
  owner_id: number;
  enabled: Generated<boolean>;
  window_days: Generated<number>;
  min_calls: Generated<number>;
  answer_rate_ratio: Generated<number>;
  short_call_seconds: Generated<number>;
  short_call_ratio: Generated<number>;
  rest_hours: Generated<number>;
  updated_at: NullableTimestamp;
}

export type RestCode = 'answer_rate' | 'short_calls' | 'manual';

/** Migration 0036: a number's last judgement and its rest, written by the number-health worker. */
export interface PhoneNumberHealthTable {
  phone_number_id: number;
  owner_id: number;
  calls: Generated<number>;
  answered: Generated<number>;
  short_calls: Generated<number>;
  account_calls: Generated<number>;
  account_answered: Generated<number>;
  account_short_calls: Generated<number>;
  judged_at: NullableTimestamp;
  /** Calls that started before this are not judged again (the end of the last rest). */
  counted_since: NullableTimestamp;
  rested_at: NullableTimestamp;
  /** The dialer passes the number over while this is in the future. */
  rested_until: NullableTimestamp;
  rest_code: RestCode | null;
  rest_reason: string | null;
}
