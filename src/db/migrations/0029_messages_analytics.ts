import { sql, type Kysely } from 'kysely';

/**
 * Reading texts by period: the analytics report's texts figures and a campaign's usage in its
 * limit period (limit_unit cost) read the messages of an account or a campaign created in a
 * range; 0028 indexed messages by id only, so each read scanned every message of the owner.
 * A text opt-out is found by its audit event (suppression.added naming the message that made it),
 * looked up per candidate message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX messages_owner_created ON messages (owner_id, created_at)`.execute(db);
  await sql`CREATE INDEX messages_campaign_created ON messages (campaign_id, created_at)`.execute(db);
  await sql`CREATE INDEX audit_events_suppression_message ON audit_events ((details->>'message_id'))
    WHERE kind = 'suppression.added'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS audit_events_suppression_message`.execute(db);
  await sql`DROP INDEX IF EXISTS messages_campaign_created`.execute(db);
  await sql`DROP INDEX IF EXISTS messages_owner_created`.execute(db);
}
