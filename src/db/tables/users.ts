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
}

export interface UsersTables {
  users: UsersTable;
}

export type UserRow = Selectable<UsersTable>;
