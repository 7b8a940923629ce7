import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';
import { stopProcess, waitUntil } from './helpers/child-process.ts';

/**
 * Number health across real processes on PostgreSQL: two worker processes judge the numbers at
 * once and rest the one whose answer rate fell far below the account's, once (one audit event),
 * then stop; a third process,
 * which never judges (NUMBER_HEALTH_EVERY_MS=0), dials the campaign and passes the rested number
 * over, saying why on each call. Needs TEST_DATABASE_URL (PGlite is single-process by design).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('number-health-process test skipped: set TEST_DATABASE_URL to run it on PostgreSQL');

const children: ChildProcess[] = [];
const dirs: string[] = [];
let database: { name: string; client: pg.Client } | undefined;

function startWorker(databaseUrl: string, judgeEveryMs: string): ChildProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-health-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'worker'], {
    env: {
      PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SECRET_KEY: 'process-test-secret-key-0123456789-abcdefghij',
      SIM_TIME_SCALE: '300', DIALER_TICK_MS: '50', LOG_LEVEL: 'warn', DB_POOL_SIZE: '5', NUMBER_HEALTH_EVERY_MS: judgeEveryMs,
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

const BAD = '+12125550181';
const GOOD = '+12125550182';
const FAR = '+14155550183';

describe.skipIf(!HAS_PG)('number health across processes on PostgreSQL', () => {
  it('rests a number in one process; the other process\'s dialer passes it over and says why', async () => {
    const name = `vc_health_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const client = new pg.Client({ connectionString: databaseUrlFor(name) });
    await client.connect();
    database = { name, client };
    const judge = startWorker(databaseUrlFor(name), '200');
    await waitUntil('migrations', async () => ((await client.query(`SELECT to_regclass('public.phone_number_health') IS NOT NULL AS ok`)).rows[0].ok ? true : false));
    const judge2 = startWorker(databaseUrlFor(name), '200');

    const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [`h${Math.random()}@example.com`]);
    await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week) VALUES ($1, '00:00', '24:00', 1000, 1000)`, [user.id]);
    const { rows: [campaign] } = await client.query(
      `INSERT INTO campaigns (owner_id, title, campaign_type, concurrent_call_limit, max_call_attempts, call_allowed_from_time, call_allowed_to_time)
       VALUES ($1, 'Spring calls', 'Outbound', 4, 1, '00:00', '23:59:59') RETURNING id`, [user.id]);
    await client.query(`INSERT INTO phone_numbers (owner_id, phone_number, campaign_id) SELECT $1, p, $2 FROM unnest($3::text[]) p`, [user.id, campaign.id, [BAD, GOOD, FAR]]);
    // An hour ago: 40 calls from BAD (2 answered), 40 from GOOD (30 answered).
    for (const [from, answered, offset] of [[BAD, 2, 0], [GOOD, 30, 100]] as const) {
      await client.query(
        `WITH c AS (
           INSERT INTO contacts (owner_id, campaign_id, phone_number, status)
           SELECT $1, $2, '+1212' || lpad((7000000 + $5::int + g)::text, 7, '0'), 'finished' FROM generate_series(1, 40) g RETURNING id, phone_number
         )
         INSERT INTO calls (owner_id, campaign_id, contact_id, call_type, from_number, to_number, status, call_duration, start_time, end_time)
         SELECT $1, $2, c.id, 'outbound', $3, c.phone_number, CASE WHEN row_number() OVER (ORDER BY c.id) <= $4 THEN 'finished' ELSE 'unavailable' END,
                CASE WHEN row_number() OVER (ORDER BY c.id) <= $4 THEN 60 ELSE 0 END, now() - interval '1 hour', now() - interval '58 minutes'
           FROM c`, [user.id, campaign.id, from, answered, offset]);
    }
    const rest = await waitUntil('the judging process rested BAD', async () => {
      const { rows } = await client.query(`SELECT h.* FROM phone_number_health h JOIN phone_numbers p ON p.id = h.phone_number_id WHERE p.phone_number = $1 AND h.rested_until > now()`, [BAD]);
      return rows[0] ?? false;
    }, 30_000);
    expect(rest).toMatchObject({ rest_code: 'answer_rate', rest_reason: 'answer rate 5% vs account 40%', calls: 40, answered: 2 });
    // Both judges go on judging for a while: the rest stands, made once.
    await new Promise((r) => setTimeout(r, 1500));
    await Promise.all([stopProcess(judge, 'SIGTERM'), stopProcess(judge2, 'SIGTERM')]);

    // Only now is there anyone to call, and only the process that never judges dials.
    const dialer = startWorker(databaseUrlFor(name), '0');
    await client.query(
      `INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
       SELECT $1, $2, '+1212' || lpad((7500000 + g)::text, 7, '0'), 'added_to_queue', now(), '{"_sim": {"status": "finished", "duration": 30}}'::jsonb
       FROM generate_series(1, 8) g`, [user.id, campaign.id]);
    const calls = await waitUntil('the eight calls ended', async () => {
      const { rows } = await client.query(`SELECT from_number, status, call_data->'caller_id'->>'reason' AS reason FROM calls WHERE campaign_id = $1 AND to_number LIKE '+12127500%'`, [campaign.id]);
      return rows.length === 8 && rows.every((r) => r.status !== 'in progress') ? rows : false;
    }, 60_000);
    await stopProcess(dialer, 'SIGTERM');

    expect(calls.map((c) => c.from_number)).toEqual(Array(8).fill(GOOD));
    expect(new Set(calls.map((c) => c.reason))).toEqual(new Set(['same area code as the contact (1 number(s) rested: answer rate 5% vs account 40%)']));
    const audits = await client.query(`SELECT actor_label, details FROM audit_events WHERE kind = 'phone_number.rested' AND owner_id = $1`, [user.id]);
    expect(audits.rows).toMatchObject([{ actor_label: 'number health', details: { code: 'answer_rate', calls: 40, answered: 2 } }]);
  }, 120_000);
});
