import { sql, type Kysely } from 'kysely';

/**
 * Recording consent (issue 27): a campaign's rule for recording its calls (NULL: `auto`, by the
 * contact's jurisdiction) and the words its agent says first. Each call keeps the rule that
 * applied, and the person's answer, in call_data.recording.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE campaign_privacy
      ADD COLUMN recording_rule text CHECK (recording_rule IN ('always', 'after_disclosure', 'after_consent')),
      ADD COLUMN recording_disclosure text CHECK (length(recording_disclosure) <= 500),
      ADD COLUMN recording_consent_prompt text CHECK (length(recording_consent_prompt) <= 500)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE campaign_privacy DROP COLUMN IF EXISTS recording_rule, DROP COLUMN IF EXISTS recording_disclosure, DROP COLUMN IF EXISTS recording_consent_prompt`.execute(db);
}
