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
  /** Twilio: the account SID (AC…); the auth token is api_key. */
  account_sid: string | null;
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

/** What this service's agent (Twilio ConversationRelay) heard and said on a call; see migration 0015. */
export interface AgentConversationsTable {
  call_id: number;
  transcript: ColumnType<unknown, string | undefined, string>;
  action_status: string | null;
  action_status_reason: string | null;
  ended_by: string | null;
  answered_by: string | null;
  transfer_to: string | null;
  opt_out: Generated<boolean>;
  opened_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface VoiceTables {
  agent_conversations: AgentConversationsTable;
  voice_connections: VoiceConnectionsTable;
  assistants: AssistantsTable;
  voice_route_pacing: VoiceRoutePacingTable;
}

export type VoiceConnectionRow = Selectable<VoiceConnectionsTable>;
export type AssistantRow = Selectable<AssistantsTable>;
