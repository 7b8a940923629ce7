import { sql, type Kysely } from 'kysely';

/**
 * The calls list filtered by status walked the newest calls until a page of matches was found,
 * which is quick while the status is spread over time and reads most of the account when it is
 * not: a status that was common a year ago and is rare now (2% voicemail, all in the older half of
 * 2M calls: 1,000,576 calls read, 500 ms for the first page, bench:ui). This index hands out each
 * status's calls newest first, so a page reads its own rows whatever the spread; a filter of several
 * statuses merges one such walk per status (calls.repository.ts). Building it on an existing
 * database blocks writes to calls while it builds (about 5 s per 2M calls on this machine).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX calls_owner_status_idx ON calls (owner_id, status, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS calls_owner_status_idx`.execute(db);
}
