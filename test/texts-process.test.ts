import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeTwilioMessages, type FakeTwilioMessages } from './fakes/twilio-messages.ts';
import { freePort, spawnServe } from './helpers/serve-process.ts';
import { adminQuery, databaseUrlFor, postgresUrl } from './helpers/test-database.ts';
import { stopProcess, waitUntil } from './helpers/child-process.ts';

/**
 * Texts from real processes on a real PostgreSQL database, to a fake Twilio over real sockets
 * (the outside world: what it received is what was sent). Two text-sender processes share the
 * queue, one is SIGKILLed with sends in flight and started again; a few claims were left by a
 * process that died between claim and write; some answers are lost. Needs TEST_DATABASE_URL
 * (PGlite is single-process by design, so none of this exists there).
 */
const HAS_PG = Boolean(postgresUrl());
if (!HAS_PG) console.warn('texts-process tests skipped: set TEST_DATABASE_URL to run the two-process and SIGKILL text tests on PostgreSQL');

const SID = `AC${'d4'.repeat(16)}`;
const TOKEN = 'texts-process-token-01';
const FROM = '+14155550100';
const JOBS = 120;
/** Jobs claimed by a process that died before writing them (its claim an hour old). */
const GHOST_CLAIMS = 6;
/** Creates whose answer the fake drops after making the message. */
const LOST = 5;

const children: ChildProcess[] = [];
const dirs: string[] = [];

function env(databaseUrl: string, fake: FakeTwilioMessages, publicUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl, VOICE_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM,
    TWILIO_BASE_URL: fake.url, PUBLIC_BASE_URL: publicUrl, SECRET_KEY: 'texts-process-secret-key-0123456789-abcdef', LOG_LEVEL: 'warn', DB_POOL_SIZE: '4',
  };
}

function textWorker(vars: Record<string, string>): ChildProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-texts-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/text-worker-process.ts'], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, TEXT_LEASE_MS: '1500', TEXT_LOST_AFTER_MS: '20000', TEXT_BATCH: '5', ...vars },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', () => {});
  children.push(child);
  return child;
}

/** Our message id, from the StatusCallback each create carries (/status/env/<id>). */
const ourId = (params: Record<string, string>) => Number(/\/status\/env\/(\d+)$/.exec(params.StatusCallback ?? '')?.[1]);

async function seedJobs(client: pg.Client): Promise<void> {
  const { rows: [user] } = await client.query(`INSERT INTO users (email, hashed_password) VALUES ($1, 'x') RETURNING id`, [`t${Math.random()}@example.com`]);
  // Texts around the clock, caps that do not bind: this test is about sending once, not the law.
  await client.query(`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week, max_texts_per_day, max_texts_per_week)
    VALUES ($1, '00:00', '24:00', 1000, 1000, 1000, 1000)`, [user.id]);
  const { rows: [c] } = await client.query(`INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, is_auto_ai_message) VALUES ($1, 'Texts', 'Outbound', $2, true) RETURNING id`, [user.id, FROM]);
  const total = JOBS + GHOST_CLAIMS;
  await client.query(`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data)
    SELECT $1, $2, '+1415' || lpad((6000000 + g)::text, 7, '0'), 'voicemail', jsonb_build_object('name', 'Person ' || g) FROM generate_series(1, $3) g`, [user.id, c.id, total]);
  await client.query(`
    INSERT INTO message_jobs (owner_id, campaign_id, contact_id, purpose, due_at, reason)
    SELECT owner_id, campaign_id, id, 'follow_up', now() - interval '1 second', 'process test' FROM contacts WHERE campaign_id = $1`, [c.id]);
  await client.query(`
    UPDATE message_jobs SET status = 'claimed', locked_by = 'ghost-died-after-claim', locked_at = now() - interval '1 hour'
    WHERE id IN (SELECT id FROM message_jobs ORDER BY id DESC LIMIT $1)`, [GHOST_CLAIMS]);
}

/**
 * No text twice at the vendor (by our message id, and by the person's number: one job each),
 * and every job one message, counted once on its contact. Returns the vendor's creates.
 */
async function sentOnce(db: pg.Client, vendor: FakeTwilioMessages) {
  const creates = vendor.messages.map((m) => ({ id: ourId(m.params), to: m.params.To!, sid: m.resource.sid }));
  expect(creates.every((c) => Number.isInteger(c.id) && c.id > 0)).toBe(true);
  expect(new Set(creates.map((c) => c.id)).size).toBe(creates.length);
  expect(new Set(creates.map((c) => c.to)).size).toBe(creates.length);
  const jobs = (await db.query(`SELECT status, message_id FROM message_jobs`)).rows as { status: string; message_id: string | null }[];
  expect(jobs).toHaveLength(JOBS + GHOST_CLAIMS);
  expect(jobs.filter((j) => j.status !== 'sent')).toEqual([]);
  expect(new Set(jobs.map((j) => String(j.message_id))).size).toBe(jobs.length);
  const perContact = await db.query(`
    SELECT c.id, c.message_attempts, count(m.id)::int AS n FROM contacts c LEFT JOIN messages m ON m.contact_id = c.id AND m.direction = 'outbound'
    GROUP BY c.id HAVING count(m.id) <> 1 OR c.message_attempts <> count(m.id)`);
  expect(perContact.rows).toEqual([]);
  return creates;
}

describe.skipIf(!HAS_PG)('text senders in processes on PostgreSQL', () => {
  let dbName = '';
  let client: pg.Client | null = null;
  let fake: FakeTwilioMessages | null = null;
  afterAll(async () => {
    await Promise.all(children.map((c) => stopProcess(c, 'SIGKILL')));
    await fake?.close();
    await client?.end().catch(() => {});
    if (dbName) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('two senders and a SIGKILL between claim and answer: every job ends, no text reaches the vendor twice, lost answers are adopted or failed', async () => {
    dbName = `vc_texts_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const url = databaseUrlFor(dbName);
    client = new pg.Client({ connectionString: url });
    await client.connect();
    const db = client;
    fake = await startFakeTwilioMessages({ accountSid: SID, authToken: TOKEN });
    const vendor = fake;

    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const vars = env(url, vendor, publicUrl);
    const migrate = spawn(process.execPath, ['bin/voice-campaigns.mjs', 'migrate'], { env: { PATH: process.env.PATH, ...vars, DATA_DIR: tmpdir() }, stdio: 'ignore' });
    expect(await new Promise((resolve) => migrate.once('exit', resolve))).toBe(0);

    // Answers come 400 ms after the message is made: sends are in flight when the kill comes.
    vendor.delayAnswers(400);
    vendor.loseNextAnswers(LOST);
    await seedJobs(db);
    const a = textWorker(vars);
    const b = textWorker(vars);
    await waitUntil('a third of the texts at the vendor', async () => vendor.messages.length >= JOBS / 3);
    await stopProcess(a, 'SIGKILL');
    const inFlight = (await db.query(`SELECT count(*)::int AS n FROM messages WHERE status = 'sending'`)).rows[0].n;
    expect(inFlight, 'the kill came with sends in flight').toBeGreaterThan(0);
    const again = textWorker(vars); // a's replacement

    await waitUntil('every job ended', async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM message_jobs WHERE status IN ('pending', 'claimed')`);
      return rows[0].n === 0;
    }, 90_000);
    // Every create answered (or dropped): the senders stop, nothing is left for them.
    await Promise.all([stopProcess(b, 'SIGTERM'), stopProcess(again, 'SIGTERM')]);

    const creates = await sentOnce(db, vendor);
    // The answers that never came: the sends the kill cut and the ones the vendor dropped. The
    // vendor reports half of those it made (adopted by our id); the rest end failed, never resent.
    const { rows: unanswered } = await db.query(`SELECT id::int AS id FROM messages WHERE status = 'sending' ORDER BY id`);
    expect(unanswered.length).toBeGreaterThanOrEqual(LOST);
    const made = new Map(creates.map((c) => [c.id, c]));
    const reported = unanswered.filter((m: { id: number }) => made.has(m.id) && m.id % 2 === 0).map((m: { id: number }) => m.id);
    // The service's HTTP, where the vendor's status callbacks arrive (its own workers run too).
    const serveDir = mkdtempSync(join(tmpdir(), 'vc-texts-serve-'));
    dirs.push(serveDir);
    const serve = spawnServe(serveDir, { ...vars, HOST: '127.0.0.1' }, port);
    children.push(serve);
    await waitUntil('serve ready', async () => (await fetch(`${publicUrl}/readyz`).then((r) => r.ok, () => false)) || false, 120_000);
    for (const id of reported) expect(await vendor.report(made.get(id)!.sid, ['sent', 'delivered'])).toEqual([204, 204]);
    // Then a sender whose patience for an answer is one second: its sweep fails the rest.
    textWorker({ ...vars, TEXT_LOST_AFTER_MS: '1000' });
    await waitUntil('every lost send adopted or failed', async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE status = 'sending'`);
      return rows[0].n === 0;
    }, 60_000);
    // Still once each after the sweeps: a lost send is never sent again.
    expect((await sentOnce(db, vendor)).length).toBe(creates.length);
    const rows = (await db.query(`SELECT id::int AS id, status, provider_message_id, error_message FROM messages`)).rows as { id: number; status: string; provider_message_id: string | null; error_message: string | null }[];
    for (const r of rows) {
      const create = made.get(r.id);
      if (reported.includes(r.id)) expect(r).toMatchObject({ status: 'delivered', provider_message_id: create!.sid });
      else if (r.status === 'failed') expect(r.error_message ?? '').toMatch(/answer to the send was lost/);
      else expect(r.provider_message_id, `message ${r.id} (${r.status})`).toBe(create?.sid);
    }
    const failed = rows.filter((r) => r.status === 'failed').length;
    expect(failed).toBe(unanswered.length - reported.length);
    // Nothing sent that has no row, and every row not failed reached the vendor.
    expect(creates.every((c) => rows.some((r) => r.id === c.id))).toBe(true);
    expect(creates.length).toBeGreaterThanOrEqual(rows.length - failed);
    console.log(`texts-process: ${creates.length} creates, ${inFlight} in flight at the kill, ${unanswered.length} unanswered, ${reported.length} adopted, ${failed} failed`);
  }, 240_000);
});
