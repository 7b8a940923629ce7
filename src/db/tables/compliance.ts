import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// Lawful calling (modules/compliance and the dialer's claim): Kysely's view of what migrations 0017 and 0019 create.

export interface SuppressionsTable {
  id: Generated<number>;
  owner_id: number;
  /** E.164. */
  phone_number: string;
  reason: string | null;
  source: 'manual' | 'import' | 'opt_out' | 'integration';
  /** The call the person opted out on (source opt_out). */
  call_id: number | null;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  created_at: Generated<Date>;
  expires_at: NullableTimestamp;
}

export interface AccountComplianceTable {
  owner_id: number;
  /** Local time of the contact, 'HH:MM:SS'. */
  quiet_hours_from: Generated<string>;
  quiet_hours_to: Generated<string>;
  max_calls_per_day: Generated<number>;
  max_calls_per_week: Generated<number>;
  /** Texts the account starts to one number (migration 0028); replies in a conversation are bounded per campaign. */
  max_texts_per_day: Generated<number>;
  max_texts_per_week: Generated<number>;
  /** The account's calls in progress at once, inbound and outbound (migration 0037); null = no cap. */
  max_concurrent_calls: number | null;
  /** Of those, kept free for inbound calls while outbound campaigns run (0 = none). */
  reserved_inbound_calls: Generated<number>;
  updated_at: Timestamp;
}

/** Bulk additions to the do-not-call list as tracked tasks (migration 0019). */
export interface SuppressionImportsTable {
  id: Generated<number>;
  owner_id: number;
  created_by_user_id: number | null;
  created_by_sub_user_id: number | null;
  kind: 'bulk' | 'csv';
  status: Generated<'pending' | 'running' | 'completed' | 'failed'>;
  file_name: string | null;
  /** [phone as given, reason, expires_at as given] per row. */
  rows: ColumnType<unknown, string | undefined, string>;
  total: Generated<number>;
  next_index: Generated<number>;
  processed: Generated<number>;
  added: Generated<number>;
  failed: Generated<number>;
  error_count: Generated<number>;
  errors: ColumnType<unknown, string | undefined, string>;
  failure_reason: string | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** The claim-worker holding the task, and when its lease was last renewed (migration 0024). */
  locked_by: string | null;
  locked_at: NullableTimestamp;
  /** Who stored the task, for its audit event: { principal, ip, user_agent } (migration 0024). */
  requested_by: ColumnType<unknown, string | undefined, string | null>;
}

export interface ComplianceTables {
  suppressions: SuppressionsTable;
  suppression_imports: SuppressionImportsTable;
  account_compliance: AccountComplianceTable;
}

export type SuppressionRow = Selectable<SuppressionsTable>;
export type AccountComplianceRow = Selectable<AccountComplianceTable>;
