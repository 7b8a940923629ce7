import { sql, type Kysely } from 'kysely';

/**
 * The claim reads each campaign's due contacts in (next_action_time, id) order with a
 * LIMIT. contacts_due_campaign_idx held (campaign_id, next_action_time) only: after a
 * bulk enqueue every contact of a campaign has the same next_action_time, so the claim
 * read and sorted all of the campaign's due rows to find the lowest ids (a cost growing
 * with the queue). This index holds the whole
 * ORDER BY, so the claim stops after the rows it takes. It serves every reader of the
 * old index too (its leading columns), which it replaces.
 *
 * contacts_parked_idx replaces contacts_awaiting_idx (campaign_id) WHERE status =
 * 'awaiting_queue' with (campaign_id, next_action_reason, updated_at): the sweep, which
 * runs every dialer round, looks for contacts waiting for one campaign reason (paused,
 * archived, limit, funds; no window and not updated since the campaign was edited) and
 * read, through the old index, every waiting contact of the campaign (imported contacts
 * not yet queued, a paused campaign's parked queue).
 *
 * Plain CREATE INDEX (migrations run in a transaction): on a large contacts table the
 * build blocks writes to contacts while it runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX contacts_due_campaign_order_idx ON contacts (campaign_id, next_action_time, id)
      WHERE status IN ('added_to_queue', 'call_scheduled')`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_due_campaign_idx`.execute(db);
  await sql`CREATE INDEX contacts_parked_idx ON contacts (campaign_id, next_action_reason, updated_at) WHERE status = 'awaiting_queue'`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_awaiting_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX IF NOT EXISTS contacts_due_campaign_idx ON contacts (campaign_id, next_action_time)
      WHERE status IN ('added_to_queue', 'call_scheduled')`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_due_campaign_order_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS contacts_awaiting_idx ON contacts (campaign_id) WHERE status = 'awaiting_queue'`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_parked_idx`.execute(db);
}
