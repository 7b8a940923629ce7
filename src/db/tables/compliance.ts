import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// Lawful calling (modules/compliance and the dialer's claim): Kysely's view of what migration 0017 creates.

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
  updated_at: Timestamp;
}

export interface ComplianceTables {
  suppressions: SuppressionsTable;
  account_compliance: AccountComplianceTable;
}

export type SuppressionRow = Selectable<SuppressionsTable>;
export type AccountComplianceRow = Selectable<AccountComplianceTable>;
