import { sql, type Kysely } from 'kysely';

/**
 * The required fields (per the integration's request schema at the time) that a delivery
 * sent as null, so the delivery log says which promised fields the receiver did not get.
 * Null for deliveries that built no payload and for those stored before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries ADD COLUMN missing_required text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS missing_required`.execute(db);
}
