import { sql, type Kysely } from 'kysely';

/**
 * Issue 29: a test call (call_type null, the SIP route test) counts toward the frequency caps of
 * the number it reaches, as an outbound call does (reach-law.ts capVerdicts); its own partial index
 * keeps that count an index lookup beside calls_outbound_number_idx (test calls are few).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS calls_test_number_idx ON calls (owner_id, to_number, start_time) WHERE call_type IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS calls_test_number_idx`.execute(db);
}
