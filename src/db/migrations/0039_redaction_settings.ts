import { sql, type Kysely } from 'kysely';

/**
 * Redaction settings (issue 27): what an account redacts before anything is stored or sent
 * (categories of personal data) and where (places), and a campaign's own choice. NULL means the
 * default: the account's built-in rule, or, on a campaign, the account's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['privacy_settings', 'campaign_privacy']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN redact_categories text[], ADD COLUMN redact_places text[]`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['privacy_settings', 'campaign_privacy']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN IF EXISTS redact_categories, DROP COLUMN IF EXISTS redact_places`.execute(db);
  }
}
