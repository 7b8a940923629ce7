import { sql, type Kysely } from 'kysely';

/**
 * Precomputed analytics, kept exact without taxing the dialer.
 *
 * Why: a report needs about ten totals, five breakdowns and a distinct count of contacts for
 * two periods; read from the calls that is five to six times the work of the plain
 * count/sum it is measured against (bench/analytics.ts). These tables hold the same figures
 * per (owner, campaign, call type, UTC day) and per UTC month, plus an account row
 * (campaign_id 0, all campaigns together) of each, and the contacts reached as 512-bit bitmaps,
 * so a month of calls is read from a few hundred rows. Statuses, action statuses and hours of
 * day are columns, not keys: as keys the rollup would be nearly as large as the calls (why
 * 0005_analytics rejected one); as columns a campaign's day is one row per call type.
 *
 * How it stays exact: statement-level triggers with transition tables append the
 * (owner, UTC day) of every changed call to `analytics_dirty` (insert-only, no index, no
 * unique key: concurrent call writes never wait on each other or on a shared row).
 * `analytics_compact()` deletes the marks it can see and recomputes those days (before today,
 * UTC) and their months from the calls in the same transaction; a reader's single statement
 * treats every day still marked (and each period edge) as raw calls. A mark is deleted only by a
 * compaction whose snapshot already includes the change it records, so no snapshot can see
 * a stale rollup row without its mark. Row-level triggers and upserted counters were
 * rejected: they put every call write on a hot shared row.
 *
 * Never edit these lists; a new status needs a new migration (until then it is counted in
 * st_other and named by a raw query).
 */
export const ROLLUP_STATUSES = ['new', 'in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'] as const;
export const ROLLUP_ACTIONS = ['interested', 'scheduled', 'transferred'] as const;
export const statusColumn = (status: string) => `st_${status.replace(/ /g, '_')}`;
export const actionColumn = (action: string) => `ac_${action}`;
/** Calls (h) and successful calls (k) per UTC hour of day: by_hour is a rotation of these. */
export const HOUR_COLUMNS = Array.from({ length: 24 }, (_, h) => `h${String(h).padStart(2, '0')}`);
export const HOUR_SUCCESS_COLUMNS = Array.from({ length: 24 }, (_, h) => `k${String(h).padStart(2, '0')}`);
export const COUNT_COLUMNS = [
  'calls', 'answered', 'finished', 'successful',
  ...ROLLUP_STATUSES.map(statusColumn), 'st_other',
  ...ROLLUP_ACTIONS.map(actionColumn), 'ac_none', 'ac_other',
  ...HOUR_COLUMNS, ...HOUR_SUCCESS_COLUMNS,
];
/** The bits of one bitmap row: contact ids (contact_id >> 9) * 512 .. + 511. */
export const CONTACT_CHUNK_BITS = 512;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
const SUCCESS = `status = 'finished' AND action_status IN (${list(ROLLUP_ACTIONS)})`;

/** What each count column counts, over calls that carry their UTC hour of day as `h`. */
export const COUNT_FILTERS: Record<string, string> = {
  calls: 'true',
  answered: 'call_duration > 0',
  finished: "status = 'finished'",
  successful: SUCCESS,
  ...Object.fromEntries(ROLLUP_STATUSES.map((s) => [statusColumn(s), `status = '${s}'`])),
  st_other: `status NOT IN (${list(ROLLUP_STATUSES)})`,
  ...Object.fromEntries(ROLLUP_ACTIONS.map((a) => [actionColumn(a), `action_status = '${a}'`])),
  ac_none: 'action_status IS NULL',
  ac_other: `action_status NOT IN (${list(ROLLUP_ACTIONS)})`,
  ...Object.fromEntries(HOUR_COLUMNS.map((col, h) => [col, `h = ${h}`])),
  ...Object.fromEntries(HOUR_SUCCESS_COLUMNS.map((col, h) => [col, `h = ${h} AND ${SUCCESS}`])),
};
const countAggregates = () => COUNT_COLUMNS.map((col) => `count(*) FILTER (WHERE ${COUNT_FILTERS[col]})`).join(',\n      ');

const DAY_START = `(k.d::timestamp AT TIME ZONE 'UTC')`;
// OFFSET 0 keeps this a per-day index range scan: flattened, the planner merge-joined every
// call against every dirty day.
const callsOfDay = (columns: string) =>
  `SELECT ${columns} FROM calls WHERE owner_id = k.o AND start_time >= ${DAY_START} AND start_time < ${DAY_START} + interval '1 day' OFFSET 0`;
const KEYS = 'owner_id, campaign_id, call_type, grain, period';
const ROLLUP_SUMS = `sum(duration), sum(cost), ${COUNT_COLUMNS.map((col) => `sum(${col})`).join(', ')}`;
const ROLLUP_COLUMNS = `${KEYS}, duration, cost, ${COUNT_COLUMNS.join(', ')}`;

/**
 * The rows derived from a table's campaign day rows of the keys in o/d: the account's row of the
 * day (campaign_id 0, every campaign together, so a whole-account report reads one row per day,
 * month and call type instead of one per campaign), then every month touched, recomputed from
 * its day rows.
 */
function derivedRows(table: string, columns: string, sums: string, extraKey = ''): string {
  const months = `(SELECT DISTINCT k.o, date_trunc('month', k.d)::date AS m FROM unnest(o, d) k(o, d)) k`;
  return `
  INSERT INTO ${table} (${columns})
    SELECT r.owner_id, 0, r.call_type, 'd', r.period${extraKey ? `, r.${extraKey}` : ''}, ${sums}
    FROM unnest(o, d) k(o, d) JOIN ${table} r ON r.owner_id = k.o AND r.grain = 'd' AND r.period = k.d
    GROUP BY r.owner_id, r.call_type, r.period${extraKey ? `, r.${extraKey}` : ''};
  DELETE FROM ${table} r USING ${months} WHERE r.grain = 'm' AND r.owner_id = k.o AND r.period = k.m;
  INSERT INTO ${table} (${columns})
    SELECT r.owner_id, r.campaign_id, r.call_type, 'm', k.m${extraKey ? `, r.${extraKey}` : ''}, ${sums}
    FROM ${months} JOIN ${table} r ON r.owner_id = k.o AND r.grain = 'd' AND r.period >= k.m AND r.period < k.m + interval '1 month'
    GROUP BY r.owner_id, r.campaign_id, r.call_type, k.m${extraKey ? `, r.${extraKey}` : ''};`;
}

/** Recomputes the day rows of the (owner, day) pairs in arrays o/d, then the rows derived from them. */
const COMPACT_FUNCTION = `
CREATE FUNCTION analytics_compact(only_owner bigint DEFAULT NULL, wait boolean DEFAULT true) RETURNS integer
LANGUAGE plpgsql
-- Planned on each run: the tables it reads grow from empty, and a cached plan would not notice.
SET plan_cache_mode = force_custom_plan
AS $fn$
DECLARE o bigint[]; d date[]; today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
  -- One compaction at a time: two would delete each other's fresh rows.
  IF wait THEN PERFORM pg_advisory_xact_lock(7243011);
  ELSIF NOT pg_try_advisory_xact_lock(7243011) THEN RETURN -1;
  END IF;
  -- Days before today (UTC) are folded. Today keeps changing while calls run and a report only
  -- ever holds part of it, so folding it would recompute all of its calls every few seconds:
  -- its marks are collapsed into one per owner instead, and it stays read from the calls.
  WITH gone AS (DELETE FROM analytics_dirty WHERE only_owner IS NULL OR owner_id = only_owner RETURNING owner_id, day),
  kept AS (INSERT INTO analytics_dirty SELECT DISTINCT owner_id, day FROM gone WHERE day >= today)
  SELECT array_agg(g.owner_id), array_agg(g.day) INTO o, d FROM (SELECT DISTINCT owner_id, day FROM gone WHERE day < today) g;
  IF o IS NULL THEN RETURN 0; END IF;

  DELETE FROM analytics_rollup r USING unnest(o, d) k(o, d) WHERE r.grain = 'd' AND r.owner_id = k.o AND r.period = k.d;
  INSERT INTO analytics_rollup (${ROLLUP_COLUMNS})
    SELECT c.owner_id, c.campaign_id, c.call_type, 'd', k.d, coalesce(sum(call_duration), 0), coalesce(sum(cost), 0),
      ${countAggregates()}
    FROM unnest(o, d) k(o, d)
    CROSS JOIN LATERAL (${callsOfDay("owner_id, campaign_id, call_type, status, action_status, cost, call_duration, extract(hour FROM start_time AT TIME ZONE 'UTC')::int AS h")}) c
    GROUP BY c.owner_id, c.campaign_id, c.call_type, k.d;
  ${derivedRows('analytics_rollup', ROLLUP_COLUMNS, ROLLUP_SUMS)}

  DELETE FROM analytics_contacts r USING unnest(o, d) k(o, d) WHERE r.grain = 'd' AND r.owner_id = k.o AND r.period = k.d;
  INSERT INTO analytics_contacts (${KEYS}, chunk, bits)
    SELECT c.owner_id, c.campaign_id, c.call_type, 'd', k.d, (c.contact_id >> 9)::int, bit_or(B'1'::bit(512) >> (c.contact_id & 511)::int)
    FROM unnest(o, d) k(o, d) CROSS JOIN LATERAL (${callsOfDay('owner_id, campaign_id, call_type, contact_id')}) c
    GROUP BY c.owner_id, c.campaign_id, c.call_type, k.d, (c.contact_id >> 9);
  ${derivedRows('analytics_contacts', `${KEYS}, chunk, bits`, 'bit_or(r.bits)', 'chunk')}
  -- A backlog (a bulk load) changes the tables' size at once: let the planner see it now.
  IF cardinality(o) > 50 THEN ANALYZE analytics_rollup; ANALYZE analytics_contacts; END IF;
  RETURN cardinality(o);
END $fn$`;

const DAY_OF = (t: string) => `(${t}.start_time AT TIME ZONE 'UTC')::date`;

/**
 * Appends the (owner, UTC day) of every row a statement wrote. An update marks its rows' old
 * and new days whatever columns it changed: joining the old and new rows to skip updates of
 * other columns made a 200-row update of wide call rows 30% slower, this union about 5%.
 */
const MARK_FUNCTION = `
CREATE FUNCTION analytics_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO analytics_dirty SELECT DISTINCT n.owner_id, ${DAY_OF('n')} FROM new_calls n WHERE n.start_time IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO analytics_dirty SELECT DISTINCT o.owner_id, ${DAY_OF('o')} FROM old_calls o WHERE o.start_time IS NOT NULL;
  ELSE
    INSERT INTO analytics_dirty SELECT n.owner_id, ${DAY_OF('n')} FROM new_calls n WHERE n.start_time IS NOT NULL
      UNION SELECT o.owner_id, ${DAY_OF('o')} FROM old_calls o WHERE o.start_time IS NOT NULL;
  END IF;
  RETURN NULL;
END $fn$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const counts = COUNT_COLUMNS.map((col) => `${col} integer NOT NULL`).join(', ');
  const key = 'owner_id bigint NOT NULL, campaign_id bigint NOT NULL, call_type text, grain "char" NOT NULL, period date NOT NULL';
  await sql.raw(`CREATE TABLE analytics_rollup (${key}, duration bigint NOT NULL, cost double precision NOT NULL, ${counts})`).execute(db);
  await sql.raw(`CREATE TABLE analytics_contacts (${key}, chunk integer NOT NULL, bits bit(${CONTACT_CHUNK_BITS}) NOT NULL)`).execute(db);
  // Read by period, all campaigns or one; rows of one owner and day are written together by one compaction.
  await sql`CREATE INDEX analytics_rollup_period_idx ON analytics_rollup (owner_id, grain, period, campaign_id)`.execute(db);
  await sql`CREATE INDEX analytics_contacts_period_idx ON analytics_contacts (owner_id, grain, period, campaign_id)`.execute(db);
  // Append-only and unindexed on purpose: a mark costs a call write one small heap insert.
  await sql`CREATE TABLE analytics_dirty (owner_id bigint NOT NULL, day date NOT NULL)`.execute(db);

  await sql.raw(COMPACT_FUNCTION).execute(db);
  await sql.raw(MARK_FUNCTION).execute(db);
  for (const [op, refs] of [['INSERT', 'NEW TABLE AS new_calls'], ['UPDATE', 'OLD TABLE AS old_calls NEW TABLE AS new_calls'], ['DELETE', 'OLD TABLE AS old_calls']] as const) {
    await sql.raw(`CREATE TRIGGER analytics_dirty_${op.toLowerCase()} AFTER ${op} ON calls REFERENCING ${refs} FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_dirty()`).execute(db);
  }
  await sql.raw(`CREATE FUNCTION analytics_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN TRUNCATE analytics_rollup, analytics_contacts, analytics_dirty; RETURN NULL; END $fn$`).execute(db);
  await sql`CREATE TRIGGER analytics_truncate AFTER TRUNCATE ON calls FOR EACH STATEMENT EXECUTE FUNCTION analytics_truncate()`.execute(db);

  // Existing calls: mark every day and compact once.
  await sql`INSERT INTO analytics_dirty SELECT DISTINCT owner_id, (start_time AT TIME ZONE 'UTC')::date FROM calls WHERE start_time IS NOT NULL`.execute(db);
  await sql`SELECT analytics_compact()`.execute(db);
  await sql`ANALYZE analytics_rollup, analytics_contacts, analytics_dirty`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER IF EXISTS analytics_dirty_${op} ON calls`).execute(db);
  await sql`DROP TRIGGER IF EXISTS analytics_truncate ON calls`.execute(db);
  await sql`DROP FUNCTION IF EXISTS analytics_truncate(), analytics_mark_dirty(), analytics_compact(bigint, boolean)`.execute(db);
  await sql`DROP TABLE IF EXISTS analytics_dirty, analytics_contacts, analytics_rollup`.execute(db);
}
