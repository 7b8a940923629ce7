import { sql, type Kysely } from 'kysely';

/**
 * Text messages, the second channel (issue 25):
 * - campaign_messaging: a campaign's messaging settings (its own endpoint, so the interface's
 *   campaign schema stays exact); no row means the defaults.
 * - message_jobs: texts to write and send (a follow-up after a call, an AI reply, an operator's
 *   text), claimed with SKIP LOCKED like every job; a job becomes at most one message.
 * - messages: one line of a conversation (the interface's Message), outbound rows written in the
 *   transaction that takes the attempt, before the send, as calls are.
 * - account_compliance gains the text caps (separate defaults from calls').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE campaign_messaging (
    campaign_id bigint PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
    owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    channel text NOT NULL DEFAULT 'sms' CHECK (channel IN ('sms', 'whatsapp')),
    follow_up_statuses text[] NOT NULL DEFAULT ARRAY['unavailable', 'busy_or_rejected', 'rejected', 'voicemail'],
    confirm_interested boolean NOT NULL DEFAULT false,
    delay_minutes integer NOT NULL DEFAULT 5 CHECK (delay_minutes BETWEEN 0 AND 10080),
    max_per_contact integer NOT NULL DEFAULT 2 CHECK (max_per_contact BETWEEN 0 AND 50),
    prompt text,
    template text,
    whatsapp_content_sid text,
    messaging_service_sid text,
    reply_stops_calls boolean NOT NULL DEFAULT true,
    accept_inbound boolean NOT NULL DEFAULT true,
    ai_replies boolean NOT NULL DEFAULT true,
    max_ai_replies_per_day integer NOT NULL DEFAULT 10 CHECK (max_ai_replies_per_day BETWEEN 0 AND 1000),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);

  await sql`CREATE TABLE messages (
    id bigserial PRIMARY KEY,
    owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    campaign_id bigint NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    contact_id bigint NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    call_id bigint REFERENCES calls(id) ON DELETE SET NULL,
    direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
    role_id text NOT NULL CHECK (role_id IN ('assistant', 'contact', 'operator')),
    source text NOT NULL CHECK (source IN ('sms', 'whatsapp')),
    purpose text CHECK (purpose IN ('follow_up', 'confirmation', 'reply', 'manual')),
    body text NOT NULL,
    status text NOT NULL CHECK (status IN ('sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed', 'read', 'received')),
    to_number text NOT NULL,
    from_number text,
    provider text NOT NULL,
    voice_connection_id bigint REFERENCES voice_connections(id) ON DELETE SET NULL,
    provider_message_id text,
    error_code text,
    error_message text,
    segments integer,
    encoding text CHECK (encoding IN ('GSM-7', 'UCS-2')),
    cost double precision,
    sent_by_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
    sent_by_sub_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    delivered_at timestamptz
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX messages_provider_message ON messages (provider, provider_message_id) WHERE provider_message_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX messages_owner_id ON messages (owner_id, id DESC)`.execute(db);
  await sql`CREATE INDEX messages_campaign_id ON messages (campaign_id, id DESC)`.execute(db);
  await sql`CREATE INDEX messages_contact_id ON messages (contact_id, id)`.execute(db);
  // Text caps count an account's outbound texts to one number over the last week.
  await sql`CREATE INDEX messages_caps ON messages (owner_id, to_number, created_at) WHERE direction = 'outbound'`.execute(db);
  // The sweep finds sends whose answer was lost.
  await sql`CREATE INDEX messages_sending ON messages (updated_at) WHERE status = 'sending'`.execute(db);

  await sql`CREATE TABLE message_jobs (
    id bigserial PRIMARY KEY,
    owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    campaign_id bigint NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    contact_id bigint NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    call_id bigint REFERENCES calls(id) ON DELETE SET NULL,
    purpose text NOT NULL CHECK (purpose IN ('follow_up', 'confirmation', 'reply', 'manual')),
    body text,
    reply_to_message_id bigint REFERENCES messages(id) ON DELETE SET NULL,
    sent_by_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
    sent_by_sub_user_id bigint,
    due_at timestamptz NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'sent', 'skipped', 'cancelled')),
    reason text,
    locked_by text,
    locked_at timestamptz,
    message_id bigint REFERENCES messages(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX message_jobs_due ON message_jobs (due_at, id) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX message_jobs_claimed ON message_jobs (locked_at) WHERE status = 'claimed'`.execute(db);
  await sql`CREATE INDEX message_jobs_contact ON message_jobs (contact_id) WHERE status IN ('pending', 'claimed')`.execute(db);
  // A call is followed by at most one text of each kind, however often its end is applied.
  await sql`CREATE UNIQUE INDEX message_jobs_one_per_call ON message_jobs (call_id, purpose)
    WHERE call_id IS NOT NULL AND purpose IN ('follow_up', 'confirmation')`.execute(db);

  await sql`ALTER TABLE account_compliance
    ADD COLUMN max_texts_per_day integer NOT NULL DEFAULT 2,
    ADD COLUMN max_texts_per_week integer NOT NULL DEFAULT 5`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE account_compliance DROP COLUMN IF EXISTS max_texts_per_day, DROP COLUMN IF EXISTS max_texts_per_week`.execute(db);
  await sql`DROP TABLE IF EXISTS message_jobs`.execute(db);
  await sql`DROP TABLE IF EXISTS messages`.execute(db);
  await sql`DROP TABLE IF EXISTS campaign_messaging`.execute(db);
}
