import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';
import { stopProcess, waitUntil } from './helpers/child-process.ts';

/**
 * Real processes on a real PostgreSQL database: a SIGKILL with calls in flight, and two
 * worker processes dialling the same campaigns. Needs TEST_DATABASE_URL (PGlite is
 * single-process by design, so neither scenario exists there).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('dialer-process tests skipped: set TEST_DATABASE_URL to run the crash and two-worker tests on PostgreSQL');

const children: ChildProcess[] = [];
const dirs: string[] = [];

function start(command: 'serve' | 'worker', databaseUrl: string, extra: Record<string, string> = {}): ChildProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-dialer-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['bin/voice-campaigns.mjs', command], {
    env: {
      PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1',
      SECRET_KEY: 'process-test-secret-key-0123456789-abcdefghij', SIM_TIME_SCALE: '300', DIALER_TICK_MS: '50',
      LOG_LEVEL: 'warn', DB_POOL_SIZE: '5', ...extra,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', () => {});
  children.push(child);
  return child;
}


async function freshDatabase() {
  const name = `vc_dialer_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = databaseUrlFor(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { name, url, client };
}

async function migrated(client: pg.Client) {
  return waitUntil('migrations', async () => {
    const { rows } = await client.query(`SELECT to_regclass('public.account_compliance') IS NOT NULL AS ok`);
    return rows[0].ok ? true : false;
  });
}

async function seed(client: pg.Client, input: { campaigns: number; contactsPer: number; limit: number; sharedNumbers?: number; maxPerDay?: number; suppressed?: string[] }) {
  const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [`p${Math.random()}@example.com`]);
  // Calls around the clock (the tests run at any hour); caps as the test asks (default: none that bind).
  await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week) VALUES ($1, '00:00', '24:00', $2, 1000)`, [user.id, input.maxPerDay ?? 1000]);
  for (const phone of input.suppressed ?? []) {
    await client.query(`INSERT INTO suppressions (owner_id, phone_number, reason, source) VALUES ($1, $2, 'process test', 'manual')`, [user.id, phone]);
  }
  const campaignIds: number[] = [];
  for (let i = 0; i < input.campaigns; i++) {
    const { rows: [c] } = await client.query(
      `INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts) VALUES ($1, $2, 'Outbound', '+12125550100', $3, 1) RETURNING id`,
      [user.id, `C${i}`, input.limit]);
    campaignIds.push(c.id);
    // Durations of 60-300 simulated seconds: 0.2-1 s at SIM_TIME_SCALE 300.
    await client.query(
      `INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
       SELECT $1, $2, '+1212' || lpad((5000000 + CASE WHEN g <= $5 THEN g ELSE $4 * 1000 + g END)::text, 7, '0'), 'added_to_queue', now(),
              jsonb_build_object('_sim', jsonb_build_object('status', 'finished', 'duration', 60 + (g * 37) % 240))
       FROM generate_series(1, $3) g`,
      [user.id, c.id, input.contactsPer, i, input.sharedNumbers ?? 0]);
  }
  return campaignIds;
}

/** Checks every invariant from the calls table itself. */
async function assertInvariants(client: pg.Client, limit: number, someNotCalled = false) {
  const stuck = await client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`);
  expect(stuck.rows[0].n).toBe(0);
  const queued = await client.query(`SELECT count(*)::int AS n FROM contacts WHERE status IN ('in progress', 'added_to_queue', 'call_scheduled')`);
  expect(queued.rows[0].n).toBe(0);
  // One call per attempt: no contact has more calls than attempts (max_call_attempts 1).
  const dialledTwice = await client.query(`
    SELECT c.id, c.calls_attempts, count(k.id)::int AS calls FROM contacts c LEFT JOIN calls k ON k.contact_id = c.id
    GROUP BY c.id HAVING count(k.id) <> c.calls_attempts OR count(k.id) > 1 ${someNotCalled ? '' : 'OR count(k.id) = 0'}`);
  expect(dialledTwice.rows).toEqual([]);
  // Concurrency, from the recorded intervals: at every call start, how many calls of its campaign were live.
  const overlap = await client.query(`
    SELECT a.campaign_id, max(n)::int AS peak FROM (
      SELECT a.campaign_id, a.id, (SELECT count(*) FROM calls b WHERE b.campaign_id = a.campaign_id AND b.start_time <= a.start_time AND b.end_time > a.start_time) AS n
      FROM calls a) a GROUP BY a.campaign_id`);
  for (const row of overlap.rows) expect(row.peak).toBeLessThanOrEqual(limit);
  // Never two calls to one number at the same time within the account.
  const sameNumber = await client.query(`
    SELECT count(*)::int AS n FROM calls a JOIN calls b ON a.owner_id = b.owner_id AND a.to_number = b.to_number AND a.id < b.id
    WHERE a.start_time < b.end_time AND b.start_time < a.end_time`);
  expect(sameNumber.rows[0].n).toBe(0);
}

describe.skipIf(!HAS_PG).concurrent('dialer processes on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>[] = [];
  beforeAll(() => { db = []; });
  afterAll(async () => {
    await Promise.all(children.map((c) => stopProcess(c, 'SIGKILL')));
    for (const d of db) {
      await d.client.end().catch(() => {});
      await adminQuery(`DROP DATABASE IF EXISTS ${d.name} WITH (FORCE)`).catch(() => {});
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('loses no call, leaves none stuck and dials none twice when the process is killed mid-call', async () => {
    const d = await freshDatabase();
    db.push(d);
    const first = start('serve', d.url);
    await migrated(d.client);
    await seed(d.client, { campaigns: 2, contactsPer: 60, limit: 10 });
    await waitUntil('calls in flight', async () => {
      const { rows } = await d.client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`);
      return rows[0].n >= 10 ? true : false;
    });
    await stopProcess(first, 'SIGKILL');
    const inFlightIds: number[] = (await d.client.query(`SELECT id FROM calls WHERE status = 'in progress'`)).rows.map((r: { id: number }) => r.id);
    const inFlight = inFlightIds.length;
    expect(inFlight).toBeGreaterThan(0);

    const second = start('serve', d.url);
    await waitUntil('every contact settled', async () => {
      const { rows } = await d.client.query(`
        SELECT (SELECT count(*) FROM calls WHERE status = 'in progress')::int + (SELECT count(*) FROM contacts WHERE status IN ('in progress', 'added_to_queue', 'call_scheduled'))::int AS n`);
      return rows[0].n === 0 ? true : false;
    }, 90_000);
    await stopProcess(second, 'SIGTERM');
    await assertInvariants(d.client, 10);
    // The new process's simulator took the killed one's calls up again: they ended as planned,
    // and only calls the simulated vendor loses were left to the reconciler.
    const resumed = await d.client.query(`SELECT count(*)::int AS n FROM calls WHERE id = ANY($1) AND coalesce(call_data->>'ended_reason', '') NOT LIKE 'no end event%'`, [inFlightIds]);
    expect(resumed.rows[0].n).toBeGreaterThan(inFlight / 2);
    const reconciled = await d.client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'failed' AND call_data->>'ended_reason' LIKE 'no end event%'`);
    expect(reconciled.rows[0].n).toBeLessThanOrEqual(inFlight);
  }, 150_000);

  it('keeps every limit, cap and suppression when two worker processes dial the same campaigns', async () => {
    const d = await freshDatabase();
    db.push(d);
    const a = start('worker', d.url);
    await migrated(d.client);
    // The first five numbers of each campaign are the same people, called from three campaigns, at
    // most twice a day; three other numbers are on the do-not-call list.
    const suppressed = ['+12125000010', '+12125000011', '+12125000012'];
    await seed(d.client, { campaigns: 3, contactsPer: 40, limit: 4, sharedNumbers: 5, maxPerDay: 2, suppressed });
    const b = start('worker', d.url);
    // Contacts whose number was busy in another campaign wait a minute: settled means
    // nothing in progress and nothing due besides them.
    await waitUntil('every contact settled', async () => {
      const { rows } = await d.client.query(`
        SELECT (SELECT count(*) FROM calls WHERE status = 'in progress')::int
             + (SELECT count(*) FROM contacts WHERE status IN ('in progress', 'added_to_queue')
                  OR (status = 'call_scheduled' AND next_action_reason NOT LIKE 'another call to this number%' AND next_action_reason NOT LIKE 'frequency cap%'))::int AS n`);
      return rows[0].n === 0 ? true : false;
    }, 120_000);
    await Promise.all([stopProcess(a, 'SIGTERM'), stopProcess(b, 'SIGTERM')]);
    await d.client.query(`UPDATE contacts SET status = 'busy' WHERE status = 'call_scheduled'`);
    await assertInvariants(d.client, 4, true);
    const total = await d.client.query(`SELECT count(*)::int AS n FROM calls`);
    // 120 contacts: 3 suppressed, and of the 15 sharing 5 numbers at most 10 called.
    expect(total.rows[0].n).toBeGreaterThanOrEqual(100);
    expect(total.rows[0].n).toBeLessThanOrEqual(112);
    const perNumber = await d.client.query(`SELECT to_number, count(*)::int AS n FROM calls GROUP BY to_number HAVING count(*) > 2`);
    expect(perNumber.rows).toEqual([]);
    expect((await d.client.query(`SELECT count(*)::int AS n FROM calls WHERE to_number = ANY($1)`, [suppressed])).rows[0].n).toBe(0);
    const stopped = await d.client.query(`SELECT status FROM contacts WHERE phone_number = ANY($1)`, [suppressed]);
    expect(stopped.rows.map((r: { status: string }) => r.status)).toEqual(['do_not_disturb', 'do_not_disturb', 'do_not_disturb']);
  }, 150_000);
});
