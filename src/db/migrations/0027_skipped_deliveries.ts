import { sql, type Kysely } from 'kysely';

/**
 * Why a post-call delivery was skipped, as a code beside the sentence in `reason`: a call the
 * integration's filters do not pass (only_interested, call_statuses) is now recorded as a skipped
 * delivery instead of leaving no trace, as a call without a transcript already was (no_transcript).
 * Code matches on skipped_by (a filter-skipped row becomes pending when a late outcome passes the
 * filter); people read the reason. Existing skipped rows were all the no-transcript kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN skipped_by text
    CHECK (skipped_by IN ('only_interested', 'call_statuses', 'no_transcript'))`.execute(db);
  await sql`UPDATE webhook_deliveries SET skipped_by = 'no_transcript' WHERE status = 'skipped'`.execute(db);
  await sql`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_skipped_by_status
    CHECK ((status = 'skipped') = (skipped_by IS NOT NULL))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM webhook_deliveries WHERE skipped_by IN ('only_interested', 'call_statuses')`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS skipped_by`.execute(db);
}
