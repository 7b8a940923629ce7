import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';
import { stopProcess, waitUntil } from './helpers/child-process.ts';
import { startReceiver, type Receiver } from './fakes/webhook-receiver.ts';

/**
 * The circuit breaker across real processes on PostgreSQL: two workers dial one campaign whose
 * calls all fail, each ending calls in its own transactions; the campaign pauses once, with one
 * trip, one audit event and one webhook event, and no call starts after it paused. Needs
 * TEST_DATABASE_URL (PGlite is single-process by design).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('breaker-process test skipped: set TEST_DATABASE_URL to run it on PostgreSQL');

const children: ChildProcess[] = [];
const dirs: string[] = [];
let receiver: Receiver | undefined;
let database: { name: string; client: pg.Client } | undefined;

function startWorker(databaseUrl: string): ChildProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-breaker-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'worker'], {
    env: {
      PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SECRET_KEY: 'process-test-secret-key-0123456789-abcdefghij',
      SIM_TIME_SCALE: '300', DIALER_TICK_MS: '50', LOG_LEVEL: 'warn', DB_POOL_SIZE: '5', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', () => {});
  children.push(child);
  return child;
}

afterAll(async () => {
  await Promise.all(children.map((c) => stopProcess(c, 'SIGKILL')));
  await receiver?.close();
  if (database) {
    await database.client.end().catch(() => {});
    await adminQuery(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`).catch(() => {});
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAS_PG)('the circuit breaker across processes on PostgreSQL', () => {
  it('pauses a campaign whose calls fail once, audits and tells it once, and no call starts after', async () => {
    const name = `vc_breaker_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const client = new pg.Client({ connectionString: databaseUrlFor(name) });
    await client.connect();
    database = { name, client };
    receiver = await startReceiver();
    const a = startWorker(databaseUrlFor(name));
    await waitUntil('migrations', async () => ((await client.query(`SELECT to_regclass('public.campaign_breaker_trips') IS NOT NULL AS ok`)).rows[0].ok ? true : false));

    const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [`b${Math.random()}@example.com`]);
    await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week) VALUES ($1, '00:00', '24:00', 1000, 1000)`, [user.id]);
    const { rows: [campaign] } = await client.query(
      `INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts) VALUES ($1, 'Broken line', 'Outbound', '+12125550100', 4, 1) RETURNING id`, [user.id]);
    // 80 contacts whose calls fail after 30-90 simulated seconds (0.1-0.3 s here), 4 at a time.
    await client.query(
      `INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
       SELECT $1, $2, '+1212' || lpad((6000000 + g)::text, 7, '0'), 'added_to_queue', now(),
              jsonb_build_object('_sim', jsonb_build_object('status', 'failed', 'duration', 30 + (g * 17) % 60))
       FROM generate_series(1, 80) g`, [user.id, campaign.id]);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const { rows: [hook] } = await client.query(
      `INSERT INTO webhook_integrations (owner_id, url, allowed_hosts, request_schema, signing_secret, send_campaign_events)
       VALUES ($1, $2, '{127.0.0.1}', '{"type":"object","properties":{},"required":[],"additionalProperties":false}', $3, true) RETURNING id`,
      [user.id, `${receiver.url}/paused`, secret]);
    await client.query(`INSERT INTO webhook_integration_campaigns (integration_id, campaign_id) VALUES ($1, $2)`, [hook.id, campaign.id]);
    const b = startWorker(databaseUrlFor(name));

    const trip = await waitUntil('the campaign paused itself', async () => {
      const { rows } = await client.query(`SELECT * FROM campaign_breaker_trips WHERE campaign_id = $1`, [campaign.id]);
      return rows[0] ?? false;
    }, 90_000);
    // Let the calls in flight end and the webhook go out, in both processes.
    await waitUntil('no call in progress', async () => ((await client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`)).rows[0].n === 0 ? true : false), 60_000);
    await waitUntil('the campaign.paused event sent', async () => (receiver!.requests.some((r) => r.url.startsWith('/paused')) ? true : false), 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all([stopProcess(a, 'SIGTERM'), stopProcess(b, 'SIGTERM')]);

    expect((await client.query(`SELECT is_paused FROM campaigns WHERE id = $1`, [campaign.id])).rows[0].is_paused).toBe(true);
    expect((await client.query(`SELECT count(*)::int AS n FROM campaign_breaker_trips WHERE campaign_id = $1`, [campaign.id])).rows[0].n).toBe(1);
    expect(trip).toMatchObject({ reason: 'failure_rate', window_seconds: 120, min_attempts: 5 });
    expect(trip.failures).toBe(trip.attempts);
    expect(trip.attempts).toBeGreaterThanOrEqual(5);
    const audits = await client.query(`SELECT details FROM audit_events WHERE kind = 'campaign.paused_by_breaker' AND subject_id = $1`, [campaign.id]);
    expect(audits.rows).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.url.startsWith('/paused'))).toHaveLength(1);
    expect(JSON.parse(receiver.requests.find((r) => r.url.startsWith('/paused'))!.body)).toMatchObject({ event: 'campaign.paused', campaign: { id: Number(campaign.id) } });
    // The pause stops the dialling: a round that read the campaign before the pause committed may
    // still start its calls (their start is the round's time), none after that.
    const late = await client.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1 AND start_time > $2::timestamptz + interval '2 seconds'`, [campaign.id, trip.tripped_at]);
    expect(late.rows[0].n).toBe(0);
    expect((await client.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1`, [campaign.id])).rows[0].n).toBeLessThan(80);
  }, 180_000);
});
