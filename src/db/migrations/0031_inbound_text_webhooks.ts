import { sql, type Kysely } from 'kysely';

/**
 * A webhook integration may also be told of each inbound text (a contact's SMS or WhatsApp
 * reply): `send_inbound_texts`, off by default so existing receivers get nothing new. Such a
 * delivery is `kind = 'text'` and names its message; one per integration and message (the unique
 * index), written in the transaction that stores the text, so a crash neither loses nor doubles it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_integrations ADD COLUMN send_inbound_texts boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN message_id bigint REFERENCES messages(id) ON DELETE SET NULL`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check`.execute(db);
  await sql`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (kind IN ('call', 'test', 'redeliver', 'text'))`.execute(db);
  await sql`CREATE UNIQUE INDEX webhook_deliveries_text_once_idx ON webhook_deliveries (integration_id, message_id) WHERE kind = 'text'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM webhook_deliveries WHERE kind = 'text'`.execute(db);
  await sql`DROP INDEX IF EXISTS webhook_deliveries_text_once_idx`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check`.execute(db);
  await sql`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (kind IN ('call', 'test', 'redeliver'))`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS message_id`.execute(db);
  await sql`ALTER TABLE webhook_integrations DROP COLUMN IF EXISTS send_inbound_texts`.execute(db);
}
