import { sql, type Kysely } from 'kysely';

/**
 * The messages list's text search (`message=`, case-insensitive substring, ILIKE) read every text
 * of the account when few matched: 96 ms at 20,000 texts, growing with the account
 * (bench/list-counts.ts). A trigram index answers a substring of three characters or more from the
 * index, whatever its position in the text; texts are short (at most 1,600 characters), so the index
 * stays small beside the table. Shorter searches still read the texts, under the statement timeout.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX messages_body_trgm ON messages USING gin (body gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS messages_body_trgm`.execute(db);
}
