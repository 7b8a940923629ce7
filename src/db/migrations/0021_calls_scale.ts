import { sql, type Kysely } from 'kysely';

/**
 * The calls list at millions of calls (issue 31, docs/scale.md has the figures).
 *
 * 1. A word index for the call_data search. `search_words` is a stored generated column (so
 *    every writer keeps it true): the words of the call data JSON text (JSON escapes and ASCII
 *    punctuation are word breaks), lower-cased, without positions, from the first 100,000
 *    characters (a tsvector is capped at 1 MB). Its GIN index answers "which calls have a word
 *    starting with ..."; its statistics tell the planner how common a word is, so a common
 *    word walks the list's id order and stops at the page while a rare one reads the index.
 *    The trigram index on call_data::text goes: it could not say how common a word is (it
 *    guessed 200 rows where 666,095 matched) and was the largest index on the table.
 *    `call_search_words(text)` is the one definition, used by the column and by the query
 *    (calls.search.ts) so both split words alike.
 *
 * 2. Exact counts without reading the calls: `call_counts` holds signed numbers of calls per
 *    (owner, campaign, status). Statement triggers with transition tables append one row per
 *    changed key (insert-only, no unique key: concurrent call writes never wait on a shared
 *    row, as 0006 explains for the analytics marks); the sum of a key's rows is its count.
 *    `call_counts_compact(owner)` folds an owner's rows into one per key in one statement.
 *
 * 3. Indexes for the filters that had none and can be selective: the destination number and
 *    the end time (each with the owner first, as every list query is one owner's).
 */
export const SEARCH_WORDS_FUNCTION = `
CREATE FUNCTION call_search_words(doc text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT strip(to_tsvector('simple', regexp_replace(regexp_replace(left(doc, 100000), '\\\\(u[0-9a-fA-F]{4}|.)', ' ', 'g'), '[[:punct:]]+', ' ', 'g')))
$fn$`;

const COUNT_FUNCTION = `
CREATE FUNCTION call_counts_track() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO call_counts SELECT owner_id, campaign_id, status, count(*) FROM new_calls GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO call_counts SELECT owner_id, campaign_id, status, -count(*) FROM old_calls GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO call_counts
      SELECT owner_id, campaign_id, status, sum(d) FROM (
        SELECT owner_id, campaign_id, status, 1 AS d FROM new_calls
        UNION ALL SELECT owner_id, campaign_id, status, -1 FROM old_calls) c
      GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $fn$`;

/**
 * Deletes the rows of an owner this snapshot sees and writes back their sums. A concurrent
 * compaction finds those rows gone and writes nothing; rows of transactions not yet committed
 * are not seen, so they are neither deleted nor counted twice.
 */
const COMPACT_FUNCTION = `
CREATE FUNCTION call_counts_compact(owner bigint) RETURNS void LANGUAGE sql AS $fn$
  WITH gone AS (DELETE FROM call_counts WHERE owner_id = owner RETURNING *)
  INSERT INTO call_counts SELECT owner_id, campaign_id, status, sum(calls) FROM gone GROUP BY 1, 2, 3 HAVING sum(calls) <> 0
$fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The rewrite and index builds below take minutes on millions of calls; the API's statement limit is not for them.
  await sql`SELECT set_config('statement_timeout', '0', true)`.execute(db);
  await sql.raw(SEARCH_WORDS_FUNCTION).execute(db);
  await sql`ALTER TABLE calls ADD COLUMN search_words tsvector GENERATED ALWAYS AS (call_search_words(call_data::text)) STORED`.execute(db);
  await sql`CREATE INDEX calls_search_words_idx ON calls USING gin (search_words)`.execute(db);
  await sql`DROP INDEX IF EXISTS calls_call_data_trgm_idx`.execute(db);
  await sql`CREATE INDEX calls_owner_to_number_idx ON calls (owner_id, to_number)`.execute(db);
  await sql`CREATE INDEX calls_owner_end_idx ON calls (owner_id, end_time)`.execute(db);

  await sql`CREATE TABLE call_counts (owner_id bigint NOT NULL, campaign_id bigint NOT NULL, status text NOT NULL, calls bigint NOT NULL)`.execute(db);
  await sql`CREATE INDEX call_counts_owner_idx ON call_counts (owner_id, campaign_id)`.execute(db);
  await sql.raw(COUNT_FUNCTION).execute(db);
  await sql.raw(COMPACT_FUNCTION).execute(db);
  for (const [op, refs] of [['INSERT', 'NEW TABLE AS new_calls'], ['UPDATE', 'OLD TABLE AS old_calls NEW TABLE AS new_calls'], ['DELETE', 'OLD TABLE AS old_calls']] as const) {
    await sql.raw(`CREATE TRIGGER call_counts_${op.toLowerCase()} AFTER ${op} ON calls REFERENCING ${refs} FOR EACH STATEMENT EXECUTE FUNCTION call_counts_track()`).execute(db);
  }
  await sql.raw(`CREATE FUNCTION call_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN TRUNCATE call_counts; RETURN NULL; END $fn$`).execute(db);
  await sql`CREATE TRIGGER call_counts_truncate AFTER TRUNCATE ON calls FOR EACH STATEMENT EXECUTE FUNCTION call_counts_truncate()`.execute(db);
  // The triggers exist before this read, and creating them locked out writers until commit.
  await sql`INSERT INTO call_counts SELECT owner_id, campaign_id, status, count(*) FROM calls GROUP BY 1, 2, 3`.execute(db);
  await sql`ANALYZE calls, call_counts`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'update', 'delete', 'truncate']) await sql.raw(`DROP TRIGGER IF EXISTS call_counts_${op} ON calls`).execute(db);
  await sql`DROP TABLE IF EXISTS call_counts`.execute(db);
  await sql`DROP FUNCTION IF EXISTS call_counts_track(), call_counts_truncate(), call_counts_compact(bigint)`.execute(db);
  await sql`DROP INDEX IF EXISTS calls_owner_to_number_idx, calls_owner_end_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS calls_call_data_trgm_idx ON calls USING gin ((call_data::text) gin_trgm_ops)`.execute(db);
  await sql`ALTER TABLE calls DROP COLUMN IF EXISTS search_words`.execute(db);
  await sql`DROP FUNCTION IF EXISTS call_search_words(text)`.execute(db);
}
