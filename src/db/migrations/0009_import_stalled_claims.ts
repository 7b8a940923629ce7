import { sql, type Kysely } from 'kysely';

/**
 * How many times an import task was claimed since it last committed a chunk. A claim
 * restarts the task's progress clock (so a service that was down for a while resumes
 * its imports instead of failing them), and this count still ends a task that crashes
 * every worker that takes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE import_tasks ADD COLUMN stalled_claims integer NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE import_tasks DROP COLUMN IF EXISTS stalled_claims`.execute(db);
}
