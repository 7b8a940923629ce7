import { sql, type Kysely } from 'kysely';

/**
 * Retention of personal data (issue 27): an account keeps transcripts, recording links,
 * extracted payloads, message texts and webhook bodies for `retention_days` (a campaign may keep
 * them for fewer); a background job then empties those fields and stamps the row
 * `personal_data_purged_at`, so a purge is done once and resumes where it stopped.
 *
 * - privacy_settings: the account's rule (no row: kept for ever, as before), and the salt of the
 *   hashes an erasure leaves where a number must still be known (the do-not-call list).
 * - campaign_privacy: a campaign's stricter rule (the shorter of the two applies).
 * - The audit trail stays append-only, but an erasure may rewrite an event's details (and
 *   nothing else) where they wrote a person's number or e-mail: the act stays, the data goes. It
 *   sets a transaction-local flag, as the audit purge does.
 * - The partial indexes hold only rows not yet purged: each run reads the rows whose time has
 *   come, whatever the history already purged (a plain time index would walk it every run).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE privacy_settings (
      owner_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      retention_days integer CHECK (retention_days BETWEEN 1 AND 36500),
      erasure_salt text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE campaign_privacy (
      campaign_id bigint PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
      owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      retention_days integer CHECK (retention_days BETWEEN 1 AND 36500),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  for (const table of ['calls', 'messages', 'webhook_deliveries']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN personal_data_purged_at timestamptz`.execute(db);
  }
  await sql`CREATE INDEX calls_retention_idx ON calls (campaign_id, coalesce(end_time, created_at)) WHERE personal_data_purged_at IS NULL AND status <> 'in progress'`.execute(db);
  await sql`CREATE INDEX messages_retention_idx ON messages (campaign_id, created_at) WHERE personal_data_purged_at IS NULL`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_retention_idx ON webhook_deliveries (owner_id, created_at) WHERE personal_data_purged_at IS NULL`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_call_idx ON webhook_deliveries (call_id) WHERE call_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_message_idx ON webhook_deliveries (message_id) WHERE message_id IS NOT NULL`.execute(db);
  await APPEND_ONLY(true).execute(db);
}

const APPEND_ONLY = (erasure: boolean) => sql.raw(`
  CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE'
       AND current_setting('voice_campaigns.audit_purge', true) = 'on'
       AND OLD.created_at < now() - interval '400 days' THEN
      RETURN OLD;
    END IF;${erasure ? `
    IF TG_OP = 'UPDATE'
       AND current_setting('voice_campaigns.audit_erasure', true) = 'on'
       AND to_jsonb(NEW) - 'details' = to_jsonb(OLD) - 'details' THEN
      RETURN NEW;
    END IF;` : ''}
    RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END $$`);

export async function down(db: Kysely<unknown>): Promise<void> {
  await APPEND_ONLY(false).execute(db);
  for (const index of ['webhook_deliveries_message_idx', 'webhook_deliveries_call_idx', 'webhook_deliveries_retention_idx', 'messages_retention_idx', 'calls_retention_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  }
  for (const table of ['calls', 'messages', 'webhook_deliveries']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN IF EXISTS personal_data_purged_at`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS campaign_privacy`.execute(db);
  await sql`DROP TABLE IF EXISTS privacy_settings`.execute(db);
}
