import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.ts';

// The an account's phone numbers tables: Kysely's view of what the migrations in ../migrations create.

export interface PhoneNumbersTable {
  id: Generated<number>;
  owner_id: number;
  phone_number: string;
  country_code: string | null;
  campaign_id: number | null;
  /** Migration 0013: the vendor's id of this number where the vendor dials by id (Vapi's phoneNumberId). */
  provider_number_id: string | null;
  /** Migration 0017: outbound calls from this number per rolling 24 hours (null = no cap). */
  daily_cap: number | null;
  created_at: Timestamp;
}

export interface PhoneNumbersTables {
  phone_numbers: PhoneNumbersTable;
}

export type PhoneNumberRow = Selectable<PhoneNumbersTable>;
