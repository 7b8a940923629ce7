import { sql, type Kysely } from 'kysely';

/**
 * Suppression imports run in the claim-worker instead of the request that stored them
 * (src/claim-worker.ts). A task gets a lease (locked_by, locked_at, renewed by each batch) so a
 * task left by a crashed process is taken over once the lease runs out, and who asked for it
 * (requested_by: the principal, ip and user agent), so the worker writes the request's audit
 * event when the task ends. A task stored before this migration has no requested_by: its event
 * names the user who created it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE suppression_imports ADD COLUMN locked_by text, ADD COLUMN locked_at timestamptz, ADD COLUMN requested_by jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE suppression_imports DROP COLUMN locked_by, DROP COLUMN locked_at, DROP COLUMN requested_by`.execute(db);
}
