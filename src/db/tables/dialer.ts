// Tables added by the dialer migration. Column types: ./column-types.ts.
import type { Timestamp } from './column-types.ts';

export interface VoiceEventsTable {
  provider: string;
  event_id: string;
  call_id: number | null;
  event_type: string;
  received_at: Timestamp;
}

export interface CallProviderRefsTable {
  call_id: number;
  provider_call_id: string;
}

export interface DialerTables {
  voice_events: VoiceEventsTable;
  call_provider_refs: CallProviderRefsTable;
}
