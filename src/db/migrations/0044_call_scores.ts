import { sql, type Kysely } from 'kysely';

/**
 * Scoring every call (issue 28): a campaign's scorecard (no row: the default card, switched
 * off) and one score row per finished call of a campaign whose card is on. The score row is
 * written in the transaction that ends the call (status pending) and doubles as the scoring
 * job (claimed_by, lease_until, attempts, due_at), so no separate queue table is needed.
 *
 * Indexes: the claim reads pending rows by due_at; the calls list's score filter is an EXISTS
 * by call_id (the primary key) or a range of scores of the account or campaign; analytics read a
 * campaign's scored rows by time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE campaign_scorecards (
      campaign_id bigint PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
      owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      enabled boolean NOT NULL DEFAULT false,
      criteria jsonb NOT NULL,
      tags text[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE call_scores (
      call_id bigint PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
      owner_id bigint NOT NULL,
      campaign_id bigint NOT NULL,
      prompt_history_id bigint,
      status text NOT NULL CHECK (status IN ('pending', 'scored', 'failed', 'needs_model', 'no_transcript')),
      score real CHECK (score >= 0 AND score <= 100),
      answers jsonb,
      tags text[] NOT NULL DEFAULT '{}',
      method text,
      error text,
      card jsonb,
      attempts int NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL DEFAULT now(),
      claimed_by text,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      scored_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX call_scores_due_idx ON call_scores (due_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX call_scores_campaign_idx ON call_scores (campaign_id, scored_at) WHERE status = 'scored'`.execute(db);
  // The calls list's score filter at scale (bench:calls-scale, 2M calls): a score range is read
  // from these and the calls fetched by id, instead of hashing every scored row of the account
  // against a campaign's calls (458 ms -> 31 ms for one campaign, 1 ms for a rare score).
  await sql`CREATE INDEX call_scores_owner_score_idx ON call_scores (owner_id, score) INCLUDE (call_id) WHERE status = 'scored'`.execute(db);
  await sql`CREATE INDEX call_scores_campaign_score_idx ON call_scores (campaign_id, score) INCLUDE (call_id) WHERE status = 'scored'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS call_scores`.execute(db);
  await sql`DROP TABLE IF EXISTS campaign_scorecards`.execute(db);
}
