import type { Timestamp } from './column-types.ts';

// The sign-in throttling tables: Kysely's view of what the migrations in ../migrations create.

/** Failed logins per key within a window (migration 0008). */
export interface LoginFailuresTable {
  key: string;
  failures: number;
  first_at: Timestamp;
}

export interface AuthTables {
  login_failures: LoginFailuresTable;
}
