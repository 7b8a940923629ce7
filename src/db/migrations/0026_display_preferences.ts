import { sql, type Kysely } from 'kysely';

/**
 * How the dashboard shows an account's times and money. `display_timezone` null means "the
 * viewer's own zone" (the browser's), so nothing changes for an account until its owner picks
 * one; `display_currency` is the currency call costs are in: the voice vendors bill in USD, so
 * existing accounts start there. Sub-users have none of their own: they see their owner's.
 * Adding a nullable column and one with a constant default rewrites no row (PostgreSQL 11+).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN display_timezone text`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN display_currency text NOT NULL DEFAULT 'USD'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS display_currency`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN IF EXISTS display_timezone`.execute(db);
}
