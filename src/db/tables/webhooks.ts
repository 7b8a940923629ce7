// Tables added by the webhooks migration. Column types: ./column-types.ts.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

type TextArray = ColumnType<string[], string[] | undefined, string[]>;
type NullableTextArray = ColumnType<string[] | null, string[] | null | undefined, string[] | null>;

export interface WebhookIntegrationsTable {
  id: Generated<number>;
  owner_id: number;
  name: string | null;
  url: string;
  auth_type: Generated<string>;
  basic_login: string | null;
  basic_password: string | null;
  bearer_token: string | null;
  api_key_value: string | null;
  api_key_header: Generated<string>;
  http_method: Generated<string>;
  allowed_hosts: TextArray;
  timeout: Generated<number>;
  save_data_use_url_params: Generated<boolean>;
  request_schema: Json;
  request_schema_source: Json;
  instructions: Json;
  only_interested: Generated<boolean>;
  call_statuses: TextArray;
  signing_secret: string;
  is_active: Generated<boolean>;
  /** Migration 0031: also told of each inbound text (a delivery of kind 'text'). */
  send_inbound_texts: Generated<boolean>;
  /** Migration 0035: also told when one of its campaigns pauses itself (a delivery of kind 'campaign'). */
  send_campaign_events: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookIntegrationCampaignsTable {
  integration_id: number;
  campaign_id: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  integration_id: number;
  owner_id: number;
  call_id: number | null;
  /** Migration 0031: the inbound text a delivery of kind 'text' tells of. */
  message_id: Generated<number | null>;
  /** Migration 0035: the breaker pause a delivery of kind 'campaign' tells of. */
  breaker_trip_id: Generated<number | null>;
  kind: Generated<string>;
  redelivery_of: number | null;
  status: string;
  reason: string | null;
  /** Migration 0027: the filter or rule that skipped it (status skipped), else null. */
  skipped_by: string | null;
  request_method: string | null;
  request_url: string | null;
  payload: Json;
  extraction_method: string | null;
  null_fields: NullableTextArray;
  /** Migration 0011: required fields sent as null. */
  missing_required: NullableTextArray;
  http_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  claimed_by: string | null;
  lease_until: NullableTimestamp;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** Migration 0038: when retention or an erasure emptied its payload and response; null: not yet. */
  personal_data_purged_at: Generated<Date | null>;
}

export interface WebhooksTables {
  webhook_integrations: WebhookIntegrationsTable;
  webhook_integration_campaigns: WebhookIntegrationCampaignsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type WebhookIntegrationRow = Selectable<WebhookIntegrationsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
