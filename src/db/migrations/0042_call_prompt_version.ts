import { sql, type Kysely } from 'kysely';

/**
 * The prompt version each call used (issue 28: scores and experiments compare prompt versions):
 * the prompt_history entry in force when the call was written; null for a campaign without
 * prompt history (its campaign_data.prompt) and for calls written before. No foreign key: a
 * campaign's history and its calls go together, and the dialer's insert stays one statement.
 * The index serves the per-version reports of a campaign.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE calls ADD COLUMN prompt_history_id bigint`.execute(db);
  await sql`CREATE INDEX calls_campaign_prompt_version_idx ON calls (campaign_id, prompt_history_id) WHERE prompt_history_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS calls_campaign_prompt_version_idx`.execute(db);
  await sql`ALTER TABLE calls DROP COLUMN IF EXISTS prompt_history_id`.execute(db);
}
