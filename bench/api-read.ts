/**
 * Read-path benchmark (issue 2): requests/s of GET /api/v1/contacts/{id} and of a
 * filtered GET /api/v1/contacts/ page through full auth (X-API-Key), against a bare
 * Fastify route running the same SQL with pg, in the same run. Goal: ratio >= 0.6.
 *
 *   npm run bench:api                       PostgreSQL (BENCH_DATABASE_URL) with 1,000,000 contacts
 *                                           and 200,000 calls, then the embedded database (smaller)
 *   BENCH_CONTACTS=200000 npm run bench:api a quicker run
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200_000);
const EMBEDDED_CONTACTS = Number(process.env.BENCH_EMBEDDED_CONTACTS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CAMPAIGNS = 100;

type Target = { databaseUrl?: string; dataDir: string };

async function seed(target: Target, contacts: number, calls: number) {
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 2 });
  try {
    await migrateToLatest(handle.db);
    const user = await createUser(handle.db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
    const key = await createApiKey(handle.db, user.id, 'bench');
    const db = handle.db;
    await sql`INSERT INTO campaigns (owner_id, title, campaign_type) SELECT ${user.id}, 'Campaign ' || i, 'Outbound' FROM generate_series(1, ${CAMPAIGNS}::int) i`.execute(db);
    const statuses = ['new', 'finished', 'busy', 'no_answer', 'call_scheduled'];
    for (let start = 0; start < contacts; start += 100_000) {
      const end = Math.min(contacts, start + 100_000);
      await sql`
        INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data, creation_method)
        SELECT ${user.id}, c.id, '+1202' || lpad(i::text, 7, '0'), (${sql.val(statuses)}::text[])[1 + i % 5],
               jsonb_build_object('name', 'Person ' || i), 'import'
        FROM generate_series(${start + 1}::int, ${end}::int) i
        JOIN campaigns c ON c.owner_id = ${user.id} AND c.title = 'Campaign ' || (1 + i % ${CAMPAIGNS})`.execute(db);
    }
    if (calls > 0) {
      await sql`
        INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, call_duration, cost, call_type, call_data)
        SELECT owner_id, campaign_id, id, 'finished', phone_number, now() - (id % 1000) * interval '1 hour', id % 300, (id % 300) * 0.002,
               'outbound', jsonb_build_object('transcript', jsonb_build_array(jsonb_build_object('role', 'user', 'text', 'hello ' || id)))
        FROM contacts WHERE owner_id = ${user.id} ORDER BY id LIMIT ${calls}`.execute(db);
    }
    await sql`ANALYZE`.execute(db);
    const range = await db.selectFrom('contacts').select([sql<number>`min(id)`.as('min'), sql<number>`max(id)`.as('max')]).executeTakeFirstOrThrow();
    const campaign = await db.selectFrom('campaigns').select('id').where('owner_id', '=', user.id).orderBy('id').executeTakeFirstOrThrow();
    return { ownerId: user.id, apiKey: key.key, minId: range.min, maxId: range.max, campaignId: campaign.id };
  } finally {
    await handle.close();
  }
}

async function startServer(mode: 'service' | 'bare', target: Target, ownerId: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/api-read-server.ts'], {
    env: { ...process.env, BENCH_MODE: mode, BENCH_OWNER_ID: String(ownerId), DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl ?? '', DB_POOL_SIZE: '10' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }),
  };
}

async function load(url: string, pathFor: () => string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({
    url,
    connections: 16,
    duration: DURATION,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: pathFor() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors from ${url}`);
  return result.requests.average;
}

async function run(label: string, target: Target, contacts: number, calls: number) {
  const started = Date.now();
  const s = await seed(target, contacts, calls);
  console.log(`\n${label}: seeded ${contacts.toLocaleString()} contacts, ${calls.toLocaleString()} calls in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const randomId = () => s.minId + Math.floor(Math.random() * (s.maxId - s.minId + 1));
  const results: Record<string, number> = {};
  for (const mode of ['bare', 'service'] as const) {
    const server = await startServer(mode, target, s.ownerId);
    try {
      const byId = mode === 'bare' ? () => `/contact/${randomId()}` : () => `/api/v1/contacts/${randomId()}`;
      const list = mode === 'bare'
        ? () => `/contacts?campaign_id=${s.campaignId}&status=new`
        : () => `/api/v1/contacts/?campaign_id=${s.campaignId}&status=new&limit=20`;
      const headers: Record<string, string> = mode === 'bare' ? {} : { 'x-api-key': s.apiKey };
      await load(server.url, byId, headers); // warm-up (caches, JIT)
      results[`${mode}:byId`] = await load(server.url, byId, headers);
      results[`${mode}:list`] = await load(server.url, list, headers);
    } finally {
      await server.stop();
    }
  }
  for (const op of ['byId', 'list'] as const) {
    const name = op === 'byId' ? 'GET /api/v1/contacts/{id}' : 'GET /api/v1/contacts/?campaign_id&status (page of 20)';
    const ours = results[`service:${op}`]!;
    const bare = results[`bare:${op}`]!;
    console.log(`  ${name.padEnd(54)} service ${ours.toFixed(0).padStart(6)} req/s   bare route ${bare.toFixed(0).padStart(6)} req/s   ratio ${(ours / bare).toFixed(2)} (goal >= 0.6)`);
  }
}

const pgDb = await createBenchDatabase('vc_bench_api');
const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-api-'));
try {
  await run('PostgreSQL', { databaseUrl: pgDb.url, dataDir }, CONTACTS, CALLS);
  const embeddedDir = mkdtempSync(join(tmpdir(), 'vc-bench-api-emb-'));
  try {
    await run('Embedded PGlite', { dataDir: embeddedDir }, EMBEDDED_CONTACTS, Math.round(EMBEDDED_CONTACTS / 5));
  } finally {
    rmSync(embeddedDir, { recursive: true, force: true });
  }
} finally {
  await pgDb.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
