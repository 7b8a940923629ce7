import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.ts';

// The accounts (users) tables: Kysely's view of what the migrations in ../migrations create.

export interface UsersTable {
  id: Generated<number>;
  email: string;
  hashed_password: string;
  full_name: string | null;
  is_superuser: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  /** Raised by a password change or a deactivation: tokens and sessions of an older one are refused (migration 0022). */
  credential_version: Generated<number>;
  /** The dashboard's zone for times; null = the viewer's own (migration 0026). */
  display_timezone: string | null;
  /** ISO 4217 code of the currency call costs are shown in (migration 0026). */
  display_currency: Generated<string>;
}

export interface UsersTables {
  users: UsersTable;
}

export type UserRow = Selectable<UsersTable>;
