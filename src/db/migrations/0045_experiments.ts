import { sql, type Kysely } from 'kysely';

/**
 * Experiments (issue 28): a campaign splits its calls between its approved prompt (the control)
 * and up to three variants (a prompt version or an assistant), each with a traffic weight.
 * One running experiment per campaign: a partial unique index, so two starts at once cannot both win.
 * Each call keeps its variant (calls.experiment_variant_id); no foreign key, as for
 * calls.prompt_history_id (migration 0042): the dialer's insert stays one statement and a
 * campaign's experiments and calls go together. The index serves the results per variant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE experiments (
      id bigserial PRIMARY KEY,
      owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      campaign_id bigint NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
      name text NOT NULL,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'running', 'stopped')),
      min_calls_per_variant integer NOT NULL CHECK (min_calls_per_variant BETWEEN 1 AND 1000000),
      created_by_user_id bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      stopped_at timestamptz,
      promoted_variant_id bigint,
      promoted_prompt_history_id bigint,
      promoted_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX experiments_campaign_idx ON experiments (campaign_id, id)`.execute(db);
  await sql`CREATE UNIQUE INDEX experiments_one_running_idx ON experiments (campaign_id) WHERE status = 'running'`.execute(db);
  await sql`
    CREATE TABLE experiment_variants (
      id bigserial PRIMARY KEY,
      experiment_id bigint NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      position smallint NOT NULL,
      kind text NOT NULL CHECK (kind IN ('control', 'prompt', 'assistant')),
      label text NOT NULL,
      weight integer NOT NULL CHECK (weight BETWEEN 1 AND 100),
      prompt_history_id bigint,
      assistant_id bigint,
      UNIQUE (experiment_id, position)
    )`.execute(db);
  await sql`ALTER TABLE calls ADD COLUMN experiment_variant_id bigint`.execute(db);
  await sql`CREATE INDEX calls_experiment_variant_idx ON calls (experiment_variant_id) WHERE experiment_variant_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS calls_experiment_variant_idx`.execute(db);
  await sql`ALTER TABLE calls DROP COLUMN IF EXISTS experiment_variant_id`.execute(db);
  await sql`DROP TABLE IF EXISTS experiment_variants`.execute(db);
  await sql`DROP TABLE IF EXISTS experiments`.execute(db);
}
