import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// The SIP trunk tables (modules/sip-trunks): Kysely's view of what migration 0046 creates.

export interface SipTrunksTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  username: string | null;
  /** Sealed (shared/secret-box.ts). */
  password: string | null;
  gateways: ColumnType<string[], string[] | undefined, string[]>;
  caller_ids: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a vendor was given for one of a trunk's numbers, by route (provider and connection). */
export interface SipTrunkVendorNumbersTable {
  trunk_id: number;
  route: string;
  number: string;
  /** A hash of the trunk settings the vendor's objects were made from: a changed trunk makes new ones. */
  fingerprint: string;
  vendor_credential_id: string | null;
  vendor_number_id: string | null;
  created_at: Timestamp;
  /** The process making (or remaking) the vendor's objects, and until when its lease holds (migration 0047). */
  making_by: ColumnType<string | null, string | null | undefined, string | null>;
  making_until: NullableTimestamp;
}

export interface SipTrunksTables {
  sip_trunks: SipTrunksTable;
  sip_trunk_vendor_numbers: SipTrunkVendorNumbersTable;
}

export type SipTrunkRow = Selectable<SipTrunksTable>;
