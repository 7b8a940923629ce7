import { sql, type Kysely } from 'kysely';

/**
 * A CSV import's column mapping (header as written -> contact_data key), kept with the task
 * so its answer can show which key each header became. Null for bulk imports and for CSV
 * tasks stored before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE import_tasks ADD COLUMN "columns" jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE import_tasks DROP COLUMN IF EXISTS "columns"`.execute(db);
}
