import { sql, type Kysely } from 'kysely';

/**
 * Finding one person by e-mail (a person's export and erasure, issue 27) reads this index, not the
 * account's contacts: without it, each request read every contact of the account (bench:privacy).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX contacts_owner_email_idx ON contacts (owner_id, lower(contact_data ->> 'email'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS contacts_owner_email_idx`.execute(db);
}
