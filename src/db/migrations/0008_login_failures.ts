import { sql, type Kysely } from 'kysely';

/**
 * Failed logins per key (a login name from one address, and an address alone), counted
 * in the database so every process of the service sees the same count. A row is kept
 * while its window lasts; expired rows are deleted as new failures come in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE login_failures (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      first_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX login_failures_first_at_idx ON login_failures (first_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS login_failures`.execute(db);
}
