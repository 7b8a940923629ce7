import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeVapi, type FakeVapi } from './fakes/vapi.ts';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';

/**
 * A real service process dialling a fake Vapi on PostgreSQL, SIGKILLed while its POST /call
 * requests are in flight (the fake holds its answers), then started again: the vendor must
 * have seen exactly one call per attempt. Calls placed before the kill report their end to the
 * new process (our call id rides in their metadata); calls the vendor never placed, or whose id
 * never came back, are settled by the reconciler asking the vendor by our call id.
 */
const HAS_PG = Boolean(postgresUrl());
const children: ChildProcess[] = [];
const dirs: string[] = [];
let fake: FakeVapi | undefined;
let database: { name: string; client: pg.Client } | undefined;

const freePort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const port = (server.address() as { port: number }).port;
    server.close(() => resolve(port));
  });
});

const stop = (child: ChildProcess, signal: NodeJS.Signals) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill(signal);
});

async function until<T>(what: string, check: () => Promise<T | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  await Promise.all(children.map((c) => stop(c, 'SIGKILL')));
  await fake?.close();
  if (database) {
    await database.client.end().catch(() => {});
    await adminQuery(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`).catch(() => {});
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAS_PG)('a service process on Vapi, killed during startCall', () => {
  it('restarts without placing a second vendor call for any attempt', async () => {
    const name = `vc_vendor_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = databaseUrlFor(name);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    database = { name, client };

    fake = await startFakeVapi({ apiKey: 'proc-vapi-key', webhookSecret: 'proc-vapi-secret', phoneNumbers: { 'pn-1': '+12125550100' }, maxConcurrent: 0, ringMs: 200, talkMs: 10_000, answerDelayMs: 1_500 });
    const port = await freePort();
    const start = () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vc-vendor-proc-'));
      dirs.push(dataDir);
      const child = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'serve'], {
        env: {
          PATH: process.env.PATH, DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          SECRET_KEY: 'vendor-process-secret-key-0123456789-abcdef', DIALER_TICK_MS: '100', LOG_LEVEL: 'warn', DB_POOL_SIZE: '5',
          VOICE_PROVIDER: 'vapi', VAPI_API_KEY: 'proc-vapi-key', VAPI_WEBHOOK_SECRET: 'proc-vapi-secret', VAPI_BASE_URL: fake!.url,
          VAPI_PHONE_NUMBER_ID: 'pn-1', VAPI_MAX_CONCURRENT_CALLS: '8', VAPI_CALLS_PER_SECOND: '0',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr!.on('data', () => {});
      children.push(child);
      return child;
    };

    const first = start();
    await until('migrations', async () => ((await client.query(`SELECT to_regclass('public.account_compliance') IS NOT NULL AS ok`)).rows[0].ok ? true : false));
    const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ('proc@example.com', 'x') RETURNING id`);
    // Calls around the clock: the test runs at any hour.
    await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to) VALUES ($1, '00:00', '24:00')`, [user.id]);
    const { rows: [campaign] } = await client.query(
      `INSERT INTO campaigns (owner_id, title, campaign_type, max_call_attempts) VALUES ($1, 'Killed', 'Outbound', 1) RETURNING id`, [user.id]);
    await client.query(
      `INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
       SELECT $1, $2, '+1212' || lpad((5100000 + g)::text, 7, '0'), 'added_to_queue', now(), '{}' FROM generate_series(1, 20) g`, [user.id, campaign.id]);

    // Kill while the vendor holds its answers: calls placed, their ids never returned.
    await until('POST /call in flight', async () => (fake!.calls.length >= 4 ? true : false));
    await stop(first, 'SIGKILL');
    const placedBeforeKill = fake.calls.length;
    // The scene the test is about: calls written and placed whose vendor id the killed process never learnt.
    const { rows: unanswered } = await client.query(`
      SELECT count(*)::int AS n FROM calls k WHERE status = 'in progress' AND NOT EXISTS (SELECT 1 FROM call_provider_refs r WHERE r.call_id = k.id)`);
    expect(unanswered[0].n).toBeGreaterThan(0);

    start();
    // Settled: nothing in progress, nothing due but contacts given their attempt back (retried a minute later).
    await until('every call settled', async () => {
      const { rows } = await client.query(`
        SELECT (SELECT count(*) FROM calls WHERE status = 'in progress')::int
             + (SELECT count(*) FROM contacts WHERE status IN ('in progress', 'added_to_queue')
                  OR (status = 'call_scheduled' AND coalesce(next_action_reason, '') NOT LIKE 'provider refused the call (retryable)%'))::int AS n`);
      return rows[0].n === 0 ? true : false;
    }, 120_000);

    // One vendor call per call row, and per contact no more vendor calls than attempts.
    const byCallId = new Map<number, number>();
    for (const c of fake.calls) {
      const request = c.request as { assistantOverrides?: { metadata?: { call_id?: number } }; assistant?: { metadata?: { call_id?: number } } };
      const id = Number(request.assistantOverrides?.metadata?.call_id ?? request.assistant?.metadata?.call_id);
      expect(Number.isInteger(id)).toBe(true);
      byCallId.set(id, (byCallId.get(id) ?? 0) + 1);
    }
    expect([...byCallId.values()].filter((n) => n > 1)).toEqual([]);
    const { rows: contacts } = await client.query(`
      SELECT c.phone_number, c.calls_attempts, count(k.id)::int AS calls FROM contacts c LEFT JOIN calls k ON k.contact_id = c.id
      WHERE c.campaign_id = $1 GROUP BY c.id`, [campaign.id]);
    for (const c of contacts) {
      const vendorCalls = fake.calls.filter((v) => v.call.customer?.number === c.phone_number).length;
      expect(vendorCalls, c.phone_number).toBeLessThanOrEqual(c.calls_attempts);
      expect(vendorCalls, c.phone_number).toBeLessThanOrEqual(1);
    }
    // The calls placed before the kill ended through their own reports, not as failures.
    const { rows: ended } = await client.query(`SELECT count(*)::int AS n FROM calls WHERE status = 'finished'`);
    expect(ended[0].n).toBeGreaterThanOrEqual(placedBeforeKill);
  }, 180_000);
});
