import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { stopProcess } from './helpers/child-process.ts';
import { openSse } from './helpers/sse-client.ts';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';

/**
 * The live stream across processes on PostgreSQL: calls dialled and spoken in a `worker` process
 * reach a browser following the stream of another process (NOTIFY at commit, then the feed reads
 * them), in order, each once. Needs TEST_DATABASE_URL (the embedded database is one process).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('live-processes test skipped: set TEST_DATABASE_URL to run it on PostgreSQL');

const SECRET_KEY = 'process-test-secret-key-0123456789-abcdefghij';
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => stopProcess(c, 'SIGKILL')));
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe.skipIf(!HAS_PG)('the live stream across processes', () => {
  it('shows calls a worker process dials, turn by turn, on a stream another process serves', async () => {
    const name = `vc_live_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = databaseUrlFor(name);
    const handle = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: 5, joinRunningEmbedded: false });
    await migrateToLatest(handle.db);
    const deps = depsFromDatabase(loadConfig({ DATABASE_URL: url, SECRET_KEY, LOG_LEVEL: 'silent' }), handle);
    const app = await buildApp(deps, { logger: false });
    cleanups.push(async () => { await app.close(); await handle.close(); });
    await app.listen({ port: 0, host: '127.0.0.1' });

    const user = await createUser(deps.db, { email: 'live-proc@example.com', password: 'process password 1', full_name: 'Live' });
    const { key } = await createApiKey(deps.db, user.id, 'test');
    await sql`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week) VALUES (${user.id}, '00:00', '24:00', 1000, 1000)`.execute(deps.db);
    const { rows: [campaign] } = await sql<{ id: number }>`
      INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts) VALUES (${user.id}, 'Across', 'Outbound', '+12125550100', 10, 1) RETURNING id`.execute(deps.db);
    const stream = await openSse(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/live/events`, { 'x-api-key': key });
    await stream.until((ev) => ev.some((e) => e.event === 'ready'));

    // The dialer runs only in the worker process: this process dials nothing.
    const dataDir = mkdtempSync(join(tmpdir(), 'vc-live-proc-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const worker = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'worker'], {
      env: { PATH: process.env.PATH, DATABASE_URL: url, DATA_DIR: dataDir, SECRET_KEY, SIM_TIME_SCALE: '20', DIALER_TICK_MS: '50', LOG_LEVEL: 'warn', DB_POOL_SIZE: '5' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr!.on('data', () => {});
    children.push(worker);
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data)
      SELECT ${user.id}, ${campaign!.id}, '+1212555' || lpad(g::text, 4, '0'), 'added_to_queue', now(), '{"_sim": {"persona": "interested"}}'
      FROM generate_series(1, 3) g`.execute(deps.db);

    await stream.until((ev) => ev.filter((e) => e.event === 'call.ended').length === 3, 60_000);
    const { rows: calls } = await sql<{ id: number; transcript: unknown[] }>`SELECT id::int, call_data->'transcript' AS transcript FROM calls ORDER BY id`.execute(deps.db);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      const story = stream.events.filter((e) => e.data?.call_id === call.id);
      const turns = story.filter((e) => e.event === 'call.turn').map((e) => ({ role: e.data.role, text: e.data.text }));
      expect(turns).toEqual(call.transcript);
      expect(story[0]!.event).toBe('call.started');
      expect(story.at(-1)!.event).toBe('call.ended');
    }
    const ids = stream.events.flatMap((e) => (e.id === null ? [] : [e.id]));
    expect(new Set(ids).size).toBe(ids.length);
    stream.close();
  }, 120_000);
});
