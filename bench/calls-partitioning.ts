/**
 * Should the calls table be partitioned by month (issue 31)? The list's queries read "one
 * owner's calls, newest id first, stop at the page". This measures them on two copies of the
 * same narrow rows (owner, campaign, status, created_at; call data left out, as it only widens
 * the heap): a plain table with the list's indexes, and one partitioned by month of created_at
 * with the same indexes on each partition. Printed as the partitioned/plain ratio of p50 in the
 * same run (the machine is shared and noisy).
 *
 *   npm run bench:calls-partitioning          2,000,000 rows over 24 months
 *   BENCH_ROWS=10000000 BENCH_MONTHS=120 npm run bench:calls-partitioning
 */
import pg from 'pg';
import { createBenchDatabase } from './support/bench-db.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 2_000_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 24);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const START = '2024-01-01';

async function setUp(client: pg.Client) {
  const columns = 'id bigint NOT NULL, owner_id bigint NOT NULL, campaign_id bigint NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL';
  await client.query(`CREATE TABLE plain (${columns}, PRIMARY KEY (id))`);
  await client.query(`CREATE TABLE parted (${columns}, PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at)`);
  for (let m = 0; m < MONTHS; m++) {
    await client.query(`CREATE TABLE parted_${m} PARTITION OF parted FOR VALUES FROM ('${START}'::date + interval '${m} month') TO ('${START}'::date + interval '${m + 1} month')`);
  }
  // Ids grow with time, as the service's do; two owners, 100 campaigns, 12 statuses.
  const fill = (table: string) => client.query(`
    INSERT INTO ${table}
    SELECT i, 1 + (i % 50 = 0)::int, 1 + i % 100, 'status-' || (i % 12),
           '${START}'::timestamptz + ((i - 1)::float8 / ${ROWS}) * (interval '1 month' * ${MONTHS})
    FROM generate_series(1, ${ROWS}) AS i`);
  await fill('plain');
  await fill('parted');
  for (const table of ['plain', 'parted']) {
    await client.query(`CREATE INDEX ${table}_owner_id ON ${table} (owner_id, id)`);
    await client.query(`CREATE INDEX ${table}_owner_campaign_status ON ${table} (owner_id, campaign_id, status, id)`);
    await client.query(`CREATE INDEX ${table}_owner_created ON ${table} (owner_id, created_at)`);
    await client.query(`ANALYZE ${table}`);
  }
}

async function p50(client: pg.Client, text: string): Promise<number> {
  for (let i = 0; i < 3; i++) await client.query(text);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await client.query(text);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const database = await createBenchDatabase('vc_bench_partitioning');
const client = new pg.Client({ connectionString: database.url });
await client.connect();
try {
  const t0 = performance.now();
  await setUp(client);
  console.log(`${ROWS.toLocaleString('en')} rows x 2 tables over ${MONTHS} months built in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  const deep = Math.floor(ROWS * 0.6);
  const cases: [string, string][] = [
    ['first page (limit 20)', 'SELECT id FROM T WHERE owner_id = 1 ORDER BY id DESC LIMIT 20'],
    ['after_id deep in the past', `SELECT id FROM T WHERE owner_id = 1 AND id < ${deep} ORDER BY id DESC LIMIT 20`],
    ['campaign + status', "SELECT id FROM T WHERE owner_id = 1 AND campaign_id = 42 AND status = 'status-6' ORDER BY id DESC LIMIT 20"],
    ['one day (created_at)', `SELECT id FROM T WHERE owner_id = 1 AND created_at >= '${START}'::date + interval '200 day' AND created_at < '${START}'::date + interval '201 day' ORDER BY id DESC LIMIT 20`],
    // The service's own form for a range whose matches are few against the walk (calls.service.ts fewerThanTheWalk).
    ['one day, matches sorted (OFFSET 0)', `SELECT id FROM (SELECT id FROM T WHERE owner_id = 1 AND created_at >= '${START}'::date + interval '200 day' AND created_at < '${START}'::date + interval '201 day' OFFSET 0) m ORDER BY id DESC LIMIT 20`],
    ['one call by id', `SELECT id FROM T WHERE id = ${deep}`],
  ];
  console.log('| query | plain p50 ms | partitioned p50 ms | partitioned / plain |');
  console.log('|---|---|---|---|');
  for (const [name, text] of cases) {
    const plain = await p50(client, text.replace('FROM T', 'FROM plain'));
    const parted = await p50(client, text.replace('FROM T', 'FROM parted'));
    console.log(`| ${name} | ${plain.toFixed(2)} | ${parted.toFixed(2)} | ${(parted / plain).toFixed(2)}x |`);
  }
  const drop = performance.now();
  await client.query('BEGIN');
  await client.query(`DELETE FROM plain WHERE created_at < '${START}'::date + interval '1 month'`);
  await client.query('ROLLBACK');
  const deleteMs = performance.now() - drop;
  const detach = performance.now();
  await client.query('BEGIN');
  await client.query('ALTER TABLE parted DETACH PARTITION parted_0');
  await client.query('DROP TABLE parted_0');
  await client.query('ROLLBACK');
  const dropMs = performance.now() - detach;
  console.log(`\nretention, one month: DELETE on the plain table ${deleteMs.toFixed(0)} ms; detach + drop of a partition ${dropMs.toFixed(0)} ms (${(deleteMs / dropMs).toFixed(0)}x)`);
} finally {
  await client.end();
  await database.drop();
}
