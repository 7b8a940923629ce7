import { sql, type Kysely } from 'kysely';

/**
 * The audit trail (src/modules/audit): who changed what that matters legally or for security,
 * when and from where. Append-only in the database itself, so no code path (nor a mistaken
 * psql session) can rewrite history: UPDATE, DELETE and TRUNCATE raise. The one exception is
 * purge_expired_audit_events(), which deletes rows older than 400 days, so the trail is kept
 * at least a year; nothing calls it on a schedule (a retention job is an operator's choice).
 *
 * No foreign keys: an event outlives the account, sub-user, key or campaign it names (a
 * cascade would also be refused by the trigger and so block those deletions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE audit_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      owner_id bigint NOT NULL,
      actor_user_id bigint,
      actor_sub_user_id bigint,
      actor_api_key_id bigint,
      actor_label text NOT NULL,
      kind text NOT NULL,
      subject_type text NOT NULL,
      subject_id bigint,
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      ip text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX audit_events_owner_time ON audit_events (owner_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_events_owner_kind_time ON audit_events (owner_id, kind, created_at)`.execute(db);

  // The purge sets a transaction-local flag; the trigger lets a DELETE through only with the
  // flag and only for a row past retention, so setting the flag by hand deletes nothing recent.
  await sql`
    CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE'
         AND current_setting('voice_campaigns.audit_purge', true) = 'on'
         AND OLD.created_at < now() - interval '400 days' THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`.execute(db);
  await sql`
    CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`.execute(db);

  await sql`
    CREATE FUNCTION purge_expired_audit_events() RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE n bigint;
    BEGIN
      PERFORM set_config('voice_campaigns.audit_purge', 'on', true);
      DELETE FROM audit_events WHERE created_at < now() - interval '400 days';
      GET DIAGNOSTICS n = ROW_COUNT;
      PERFORM set_config('voice_campaigns.audit_purge', 'off', true);
      RETURN n;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS audit_events`.execute(db);
  await sql`DROP FUNCTION IF EXISTS purge_expired_audit_events()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_events_append_only()`.execute(db);
}
