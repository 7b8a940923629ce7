import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// The voice tables (modules/assistants and modules/voice-connections, and the dialer's
// vendor pacing): Kysely's view of what migration 0013 creates.

export interface VoiceConnectionsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  provider: string;
  /** Sealed (shared/secret-box.ts). */
  api_key: string;
  /** Sealed; Vapi's server secret (Retell signs with the API key). */
  webhook_secret: string | null;
  phone_number_id: string | null;
  agent_id: string | null;
  from_number: string | null;
  max_concurrent_calls: number | null;
  calls_per_second: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AssistantsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  provider: string;
  provider_assistant_id: string | null;
  voice_connection_id: number | null;
  first_message: string | null;
  system_prompt: string | null;
  voice: string | null;
  language: string | null;
  model: string | null;
  voicemail_action: Generated<string>;
  voicemail_message: string | null;
  max_duration_seconds: number | null;
  transfer_number: string | null;
  action_status_rules: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VoiceRoutePacingTable {
  route: string;
  tokens: number;
  refreshed_at: Timestamp;
  blocked_until: NullableTimestamp;
}

export interface VoiceTables {
  voice_connections: VoiceConnectionsTable;
  assistants: AssistantsTable;
  voice_route_pacing: VoiceRoutePacingTable;
}

export type VoiceConnectionRow = Selectable<VoiceConnectionsTable>;
export type AssistantRow = Selectable<AssistantsTable>;
