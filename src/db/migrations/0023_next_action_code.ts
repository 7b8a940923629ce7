import { sql, type Kysely } from 'kysely';

/**
 * A contact's next step gets a machine-readable code (contact-lifecycle/next-action.ts) beside
 * the sentence `next_action_reason`, which stops being matched by code. The sweep finds parked
 * contacts by code: contacts_parked_code_idx replaces contacts_parked_idx (campaign_id,
 * next_action_reason, updated_at), same shape.
 *
 * Existing rows get the code their sentence was written with (the texts below are the ones
 * the service wrote before this migration); a sentence none of them matches was written
 * through the API (`set_by_user`). One UPDATE over the contacts that have a reason: on a large
 * table it rewrites those rows once, in the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE contacts ADD COLUMN next_action_code text`.execute(db);
  await sql`
    UPDATE contacts SET next_action_code = CASE
      WHEN next_action_reason = 'campaign paused' THEN 'campaign_paused'
      WHEN next_action_reason = 'campaign archived' THEN 'campaign_archived'
      WHEN next_action_reason = 'inbound campaign: it places no outbound calls' THEN 'campaign_inbound'
      WHEN next_action_reason = 'campaign usage limit reached' THEN 'usage_limit'
      WHEN next_action_reason = 'campaign paused: insufficient funds with the voice provider' THEN 'insufficient_funds'
      WHEN next_action_reason LIKE 'no calling window:%' THEN 'no_window'
      WHEN next_action_reason LIKE 'back in the queue:%' THEN 'requeued'
      WHEN next_action_reason = 'inbound call in progress' THEN 'inbound_call'
      WHEN next_action_reason LIKE 'call % in progress' THEN 'calling'
      WHEN next_action_reason LIKE 'retry %' THEN 'retry_scheduled'
      WHEN next_action_reason LIKE 'outside calling window%' THEN 'outside_window'
      WHEN next_action_reason LIKE 'frequency cap%' THEN 'frequency_cap'
      WHEN next_action_reason LIKE 'every number of the campaign reached its daily cap%' THEN 'caller_id_cap'
      WHEN next_action_reason LIKE 'another call to this number is in progress%' THEN 'number_busy'
      WHEN next_action_reason LIKE 'waiting for a free %' OR next_action_reason LIKE 'voice provider unavailable:%' THEN 'vendor_pacing'
      WHEN next_action_reason LIKE '%refused the call%' THEN 'vendor_refused'
      WHEN next_action_reason LIKE 'suppressed:%' OR next_action_reason LIKE 'opted out on call%' THEN 'suppressed'
      WHEN next_action_reason LIKE 'queued by%' OR next_action_reason LIKE 'auto_calls: queued%' THEN 'queued'
      WHEN next_action_reason LIKE '%no attempts left%' OR next_action_reason LIKE 'last call %' THEN 'completed'
      ELSE 'set_by_user' END
    WHERE next_action_reason IS NOT NULL`.execute(db);
  await sql`CREATE INDEX contacts_parked_code_idx ON contacts (campaign_id, next_action_code, updated_at) WHERE status = 'awaiting_queue'`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_parked_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS contacts_parked_idx ON contacts (campaign_id, next_action_reason, updated_at) WHERE status = 'awaiting_queue'`.execute(db);
  await sql`DROP INDEX IF EXISTS contacts_parked_code_idx`.execute(db);
  await sql`ALTER TABLE contacts DROP COLUMN IF EXISTS next_action_code`.execute(db);
}
