import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// The circuit breaker (modules/breaker, issue 26): Kysely's view of what migration 0035 creates.

export interface CampaignProtectionTable {
  campaign_id: number;
  owner_id: number;
  breaker_enabled: Generated<boolean>;
  /** Failures per attempt (0 < x <= 1) at or above which the campaign pauses itself. */
  failure_rate_threshold: Generated<number>;
  window_seconds: Generated<number>;
  min_attempts: Generated<number>;
  /** The last resume: calls that ended before it are not counted again. */
  counted_since: NullableTimestamp;
  /** When the settings were last saved; null: never (a resume wrote counted_since alone). */
  updated_at: NullableTimestamp;
}

export interface CampaignBreakerTripsTable {
  id: Generated<number>;
  campaign_id: number;
  owner_id: number;
  reason: Generated<'failure_rate'>;
  failures: number;
  attempts: number;
  window_seconds: number;
  failure_rate_threshold: number;
  min_attempts: number;
  tripped_at: Timestamp;
  /** Set by the resume that ended this pause; null while it holds. */
  resumed_at: NullableTimestamp;
}

export interface BreakerTables {
  campaign_protection: CampaignProtectionTable;
  campaign_breaker_trips: CampaignBreakerTripsTable;
}

export type CampaignProtectionRow = Selectable<CampaignProtectionTable>;
export type CampaignBreakerTripRow = Selectable<CampaignBreakerTripsTable>;
