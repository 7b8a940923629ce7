import type { Generated, Insertable, Selectable } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './column-types.ts';

// The contacts tables: Kysely's view of what the migrations in ../migrations create.

export interface ContactsTable {
  id: Generated<number>;
  owner_id: number;
  campaign_id: number;
  phone_number: string;
  status: string;
  contact_data: Json;
  timezone: string | null;
  source: string | null;
  creation_method: string | null;
  calls_attempts: Generated<number>;
  message_attempts: Generated<number>;
  next_action_time: NullableTimestamp;
  next_action_reason: string | null;
  /** The machine-readable kind of next_action_reason (contact-lifecycle/next-action.ts). */
  next_action_code: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactsTables {
  contacts: ContactsTable;
}

export type ContactRow = Selectable<ContactsTable>;
export type NewContact = Insertable<ContactsTable>;
