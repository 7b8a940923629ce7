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
}

export interface UsersTables {
  users: UsersTable;
}

export type UserRow = Selectable<UsersTable>;
