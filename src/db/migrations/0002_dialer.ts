import { sql, type Kysely } from 'kysely';

/**
 * Dialer: the indexes that make the dialer's guarantees hold in the database (so they
 * hold across processes), and the provider events seen (de-duplication).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Never two calls in progress to one person's number within an account, across campaigns.
  // For inbound calls the person is the caller (from_number).
  await sql`
    CREATE UNIQUE INDEX calls_one_live_call_per_number ON calls
      (owner_id, (CASE WHEN call_type = 'inbound' THEN from_number ELSE to_number END))
      WHERE status = 'in progress'`.execute(db);
  // A contact is never in two calls at once.
  await sql`CREATE UNIQUE INDEX calls_one_live_call_per_contact ON calls (contact_id) WHERE status = 'in progress'`.execute(db);
  // Concurrency counts per campaign and the reconciler's scan of old live calls.
  await sql`CREATE INDEX calls_live_campaign_idx ON calls (campaign_id) WHERE status = 'in progress'`.execute(db);
  await sql`CREATE INDEX calls_live_start_idx ON calls (start_time) WHERE status = 'in progress'`.execute(db);
  await sql`CREATE INDEX calls_external_session_idx ON calls (external_session_id) WHERE external_session_id IS NOT NULL`.execute(db);
  // Due contacts: the claim reads them per campaign in next_action_time order.
  await sql`
    CREATE INDEX contacts_due_idx ON contacts (next_action_time)
      WHERE status IN ('added_to_queue', 'call_scheduled')`.execute(db);
  await sql`
    CREATE INDEX contacts_due_campaign_idx ON contacts (campaign_id, next_action_time)
      WHERE status IN ('added_to_queue', 'call_scheduled')`.execute(db);
  await sql`CREATE INDEX contacts_awaiting_idx ON contacts (campaign_id) WHERE status = 'awaiting_queue'`.execute(db);

  await sql`
    CREATE TABLE voice_events (
      provider text NOT NULL,
      event_id text NOT NULL,
      call_id bigint REFERENCES calls(id) ON DELETE CASCADE,
      event_type text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, event_id)
    )`.execute(db);
  await sql`CREATE INDEX voice_events_call_idx ON voice_events (call_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS voice_events`.execute(db);
  for (const index of ['calls_one_live_call_per_number', 'calls_one_live_call_per_contact', 'calls_live_campaign_idx', 'calls_live_start_idx', 'calls_external_session_idx', 'contacts_due_idx', 'contacts_due_campaign_idx', 'contacts_awaiting_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.id(index)}`.execute(db);
  }
}
