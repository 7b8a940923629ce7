import type { Generated } from 'kysely';
import type { NullableTimestamp } from './column-types.ts';

// Privacy (modules/privacy, issue 27): Kysely's view of what migration 0038 creates. The
// personal_data_purged_at columns it adds to calls, messages and webhook_deliveries are declared
// with those tables.

export interface PrivacySettingsTable {
  owner_id: number;
  /** Days personal data is kept after a call ends (a text is sent, a delivery made); null: for ever. */
  retention_days: number | null;
  /** The salt of erased numbers' hashes (`erased:<hash>`), made at the account's first erasure. */
  erasure_salt: string | null;
  /** What is redacted (REDACTION_CATEGORIES); null: the default (redaction-policy.ts). */
  redact_categories: string[] | null;
  /** Where (REDACTION_PLACES); null: the default. */
  redact_places: string[] | null;
  updated_at: Generated<Date>;
}

export interface CampaignPrivacyTable {
  campaign_id: number;
  owner_id: number;
  /** A campaign's stricter rule: the shorter of it and the account's applies; null: the account's. */
  retention_days: number | null;
  /** What is redacted (REDACTION_CATEGORIES); null: the account's. */
  redact_categories: string[] | null;
  /** Where (REDACTION_PLACES); null: the account's. */
  redact_places: string[] | null;
  /** Migration 0040: how its calls are recorded (recording-rule.ts); null: auto, by the contact's jurisdiction. */
  recording_rule: string | null;
  /** The agent's first words under after_disclosure; null: DEFAULT_DISCLOSURE. */
  recording_disclosure: string | null;
  /** The agent's question under after_consent; null: DEFAULT_CONSENT_PROMPT. */
  recording_consent_prompt: string | null;
  updated_at: Generated<Date>;
}

export interface PrivacyTables {
  privacy_settings: PrivacySettingsTable;
  campaign_privacy: CampaignPrivacyTable;
}

