import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';
import { stopProcess, waitUntil } from './helpers/child-process.ts';

/**
 * The account's reserve for inbound calls across real processes on PostgreSQL: two workers dial
 * three campaigns of one account while callers arrive and hang up, each inbound call written the
 * way recordInboundCall writes it (the account's advisory lock, then the row). Judged from the
 * recorded intervals: at every outbound start, outbound + max(inbound, reserve) <= max. Needs
 * TEST_DATABASE_URL (PGlite is single-process by design).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('reserve-process test skipped: set TEST_DATABASE_URL to run it on PostgreSQL');

const MAX = 5;
const RESERVE = 2;
// modules/dialer/account-capacity.ts: the advisory lock class of an account's concurrency.
const ACCOUNT_LOCK_CLASS = 7304;

const children: ChildProcess[] = [];
const dirs: string[] = [];
let database: { name: string; client: pg.Client } | undefined;

function startWorker(databaseUrl: string): ChildProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-reserve-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'worker'], {
    env: {
      PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SECRET_KEY: 'process-test-secret-key-0123456789-abcdefghij',
      SIM_TIME_SCALE: '300', DIALER_TICK_MS: '50', LOG_LEVEL: 'warn', DB_POOL_SIZE: '5',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', () => {});
  children.push(child);
  return child;
}

afterAll(async () => {
  await Promise.all(children.map((c) => stopProcess(c, 'SIGKILL')));
  if (database) {
    await database.client.end().catch(() => {});
    await adminQuery(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`).catch(() => {});
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAS_PG)('the inbound reserve across processes on PostgreSQL', () => {
  it('never lets two workers start outbound calls into the capacity kept for inbound, while callers come and go', async () => {
    const name = `vc_reserve_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const client = new pg.Client({ connectionString: databaseUrlFor(name) });
    await client.connect();
    database = { name, client };
    const a = startWorker(databaseUrlFor(name));
    await waitUntil('migrations', async () => ((await client.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'account_compliance' AND column_name = 'reserved_inbound_calls'`)).rows[0].n === 1 ? true : false));

    const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [`r${Math.random()}@example.com`]);
    await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week, max_concurrent_calls, reserved_inbound_calls)
      VALUES ($1, '00:00', '24:00', 1000, 1000, $2, $3)`, [user.id, MAX, RESERVE]);
    const { rows: [inbound] } = await client.query(`INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone) VALUES ($1, 'Hotline', 'Inbound', '+12125550155') RETURNING id, title`, [user.id]);
    for (let i = 0; i < 3; i++) {
      const { rows: [c] } = await client.query(
        `INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts) VALUES ($1, $2, 'Outbound', '+12125550100', 0, 1) RETURNING id`, [user.id, `C${i}`]);
      // Calls of 60-300 simulated seconds: 0.2-1 s at SIM_TIME_SCALE 300.
      await client.query(
        `INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
         SELECT $1, $2, '+1212' || lpad((7000000 + $3 * 1000 + g)::text, 7, '0'), 'added_to_queue', now(),
                jsonb_build_object('_sim', jsonb_build_object('status', 'finished', 'duration', 60 + (g * 37) % 240))
         FROM generate_series(1, 20) g`, [user.id, c.id, i]);
    }
    const b = startWorker(databaseUrlFor(name));

    // Callers: one arrives every 100-300 ms, at most four at once (beyond the reserve of two), each
    // hanging up after 0.3-1.5 s. Written as recordInboundCall does: the account's lock, then the row.
    let callers = 0;
    const live: { id: number; until: number }[] = [];
    const outboundLeft = async () => (await client.query(`SELECT count(*)::int AS n FROM contacts WHERE campaign_id <> $1 AND status IN ('added_to_queue', 'call_scheduled', 'in progress')`, [inbound.id])).rows[0].n;
    while ((await outboundLeft()) > 0) {
      const now = Date.now();
      for (const call of live.filter((k) => k.until <= now)) {
        await client.query(`UPDATE calls SET status = 'finished', end_time = clock_timestamp() WHERE id = $1 AND status = 'in progress'`, [call.id]);
        live.splice(live.indexOf(call), 1);
      }
      if (live.length < 4) {
        const from = `+1212${String(8000000 + ++callers).padStart(7, '0')}`;
        await client.query('BEGIN');
        const { rows: [contact] } = await client.query(`INSERT INTO contacts (owner_id, campaign_id, phone_number, status) VALUES ($1, $2, $3, 'in progress') RETURNING id`, [user.id, inbound.id, from]);
        await client.query(`SELECT pg_advisory_xact_lock($1, $2::int)`, [ACCOUNT_LOCK_CLASS, user.id]);
        const { rows: [call] } = await client.query(
          `INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data, provider)
           VALUES ($1, $2, $3, 'in progress', $4, '+12125550155', clock_timestamp(), 'inbound', $5, '{}', '{"transcript":[]}', 'test') RETURNING id`,
          [user.id, inbound.id, contact.id, from, inbound.title]);
        await client.query('COMMIT');
        live.push({ id: call.id, until: Date.now() + 300 + (callers * 397) % 1200 });
      }
      await new Promise((r) => setTimeout(r, 100 + (callers * 53) % 200));
      if (callers > 2000) throw new Error('the outbound contacts never settled');
    }
    await waitUntil('no outbound call in progress', async () => ((await client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress' AND call_type = 'outbound'`)).rows[0].n === 0 ? true : false), 60_000);
    await Promise.all([stopProcess(a, 'SIGTERM'), stopProcess(b, 'SIGTERM')]);
    await client.query(`UPDATE calls SET status = 'finished', end_time = clock_timestamp() WHERE status = 'in progress'`);

    const { rows: starts } = await client.query(`
      SELECT o.id, o.start_time,
             (SELECT count(*) FROM calls k WHERE k.call_type = 'outbound' AND k.start_time <= o.start_time AND k.end_time > o.start_time)::int AS outbound,
             (SELECT count(*) FROM calls k WHERE k.call_type = 'inbound' AND k.start_time <= o.start_time AND k.end_time > o.start_time)::int AS inbound
      FROM calls o WHERE o.call_type = 'outbound' ORDER BY o.id`);
    expect(starts.length).toBe(60);
    const over = starts.filter((s: { outbound: number; inbound: number }) => s.outbound + Math.max(s.inbound, RESERVE) > MAX);
    expect(over).toEqual([]);
    // Not vacuous: outbound calls filled the account, and callers went beyond the reserve meanwhile.
    expect(starts.filter((s: { outbound: number; inbound: number }) => s.outbound + Math.max(s.inbound, RESERVE) === MAX).length).toBeGreaterThan(0);
    const { rows: [peak] } = await client.query(`
      SELECT max((SELECT count(*) FROM calls k WHERE k.call_type = 'inbound' AND k.start_time <= i.start_time AND k.end_time > i.start_time))::int AS n
      FROM calls i WHERE i.call_type = 'inbound'`);
    expect(peak.n).toBeGreaterThan(RESERVE);
  }, 180_000);
});
