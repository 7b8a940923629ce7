import type { Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

// The live events stream (modules/live, issue 26): Kysely's view of what migration 0034 creates.

export interface LiveEventsTable {
  id: Generated<string>;
  owner_id: number;
  campaign_id: number | null;
  call_id: number | null;
  type: string;
  data: Json;
  created_at: Timestamp;
}

export interface LiveTables {
  live_events: LiveEventsTable;
}

export type LiveEventRow = Selectable<LiveEventsTable>;
