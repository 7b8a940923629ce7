import { sql, type Kysely } from 'kysely';

/**
 * Covering indexes for analytics: every column the reports read is in the index, so a
 * period is answered by an index-only scan instead of visiting the wide call rows
 * (transcript data, numbers, URLs).
 *
 * A rollup keyed by (campaign, UTC hour, status, action status, call type) was considered
 * and not kept here: with a few calls per campaign-hour it would be nearly as large as the
 * table it summarises and cost a write on every call insert and update (0006 keeps a
 * rollup with those dimensions as columns instead).
 *
 * The (owner_id, start_time) key replaces the foundation's calls_owner_start_idx, which
 * it serves identically, so an insert or update of a call writes one index fewer.
 */
const INCLUDED = sql.raw('contact_id, status, action_status, call_type, cost, call_duration');

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX calls_owner_start_cover_idx ON calls (owner_id, start_time) INCLUDE (campaign_id, ${INCLUDED})`.execute(db);
  await sql`CREATE INDEX calls_campaign_start_cover_idx ON calls (campaign_id, start_time) INCLUDE (owner_id, ${INCLUDED})`.execute(db);
  await sql`DROP INDEX IF EXISTS calls_owner_start_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS calls_owner_start_idx ON calls (owner_id, start_time)`.execute(db);
  await sql`DROP INDEX IF EXISTS calls_campaign_start_cover_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS calls_owner_start_cover_idx`.execute(db);
}
