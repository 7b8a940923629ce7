import type { Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

// The contact-creation integrations, their campaigns and rate windows tables: Kysely's view of what the migrations in ../migrations create.

export interface ContactIntegrationsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  token_prefix: string;
  token_hash: string;
  auto_start_calls: Generated<boolean>;
  determine_timezone: Generated<boolean>;
  rate_limit_per_minute: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactIntegrationCampaignsTable {
  integration_id: number;
  campaign_id: number;
  position: number;
}

export interface ContactIntegrationRateWindowsTable {
  integration_id: number;
  window_start: Timestamp;
  hits: number;
}

export interface ContactIntegrationsTables {
  contact_integrations: ContactIntegrationsTable;
  contact_integration_campaigns: ContactIntegrationCampaignsTable;
  contact_integration_rate_windows: ContactIntegrationRateWindowsTable;
}
