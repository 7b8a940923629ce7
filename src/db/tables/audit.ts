import type { Generated } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

// The audit tables: Kysely's view of what migration 0016_audit_events creates. Rows are only
// ever inserted (the database refuses UPDATE and DELETE).

export interface AuditEventsTable {
  id: Generated<number>;
  owner_id: number;
  actor_user_id: number | null;
  actor_sub_user_id: number | null;
  actor_api_key_id: number | null;
  actor_label: string;
  kind: string;
  subject_type: string;
  subject_id: number | null;
  details: Json;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface AuditTables {
  audit_events: AuditEventsTable;
}
