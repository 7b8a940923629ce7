/**
 * Webhook delivery throughput: N finished calls (default 10,000; BENCH_CALLS) are
 * delivered by the webhook worker with the offline extractor to a local receiver,
 * against a bare undici POST loop to the same receiver in the same run, with the same
 * number of requests in flight (BENCH_CONCURRENCY, default 16). Prints both rates and
 * the ratio (goal >= 0.5).
 *   npm run bench:webhooks
 *   BENCH_DATABASE_URL=postgres://... BENCH_CALLS=10000 npm run bench:webhooks
 */
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createIntegration } from '../src/modules/webhooks/webhooks.service.ts';
import { enqueueWebhookDeliveries } from '../src/modules/webhooks/enqueue-deliveries.ts';
import { createWebhookWorker } from '../src/modules/webhooks/webhooks.worker.ts';

const N = Number(process.env.BENCH_CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `vc_bench_webhooks_${process.pid}`;

/** CPU time (user + system) this process used since `start`, in ms: the figure that matters on a small machine. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}
const perItem = (cpuMs: number) => ((cpuMs * 1000) / N).toFixed(0);

/** BENCH_CPU_PROFILE=file.cpuprofile: a CPU profile of the worker phase only (setup and baseline left out). */
async function startProfile() {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * CPU time (ms) of this database's PostgreSQL backends on this machine (Linux /proc; 0
 * elsewhere): the database's share of the two cores the benchmark competes for.
 */
function postgresCpuMs(database: string): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function admin(text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function main() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  await admin(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-'));
  const config = loadConfig({ DATABASE_URL: url.toString(), DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-key-that-is-long-enough-012345', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', DB_POOL_SIZE: '20' });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir, poolSize: 20 });
  try {
    await migrateToLatest(database.db);
    const deps = depsFromDatabase(config, database);
    const { db } = deps;
    const user = await createUser(db, { email: 'bench@example.com', password: 'bench password', is_superuser: false, full_name: 'Bench' });
    const campaign = await db.insertInto('campaigns').values({ owner_id: user.id, title: 'bench', campaign_type: 'Outbound' }).returning('id').executeTakeFirstOrThrow();
    const integration = await createIntegration({
      db,
      secrets: deps.secrets,
      principal: { kind: 'user', userId: user.id, ownerId: user.id, isSuperuser: false },
      body: { url: receiverUrl, request_schema: { name: 'client name', email: 'e-mail', interested: 'yes or no' }, campaign_ids: [campaign.id], auth_type: 'bearer', bearer_token: 'bench-token' },
    });

    const t0 = performance.now();
    const transcript = JSON.stringify({ transcript: [{ role: 'assistant', text: 'Are you interested in a demo?' }, { role: 'user', text: 'Yes, mail me at lead@example.org' }] });
    for (let start = 0; start < N; start += 1000) {
      const count = Math.min(1000, N - start);
      await db.transaction().execute(async (trx) => {
        const contacts = await trx
          .insertInto('contacts')
          .values(Array.from({ length: count }, (_, i) => ({ owner_id: user.id, campaign_id: campaign.id, phone_number: `+1202${5_000_000 + start + i}`, status: 'finished', contact_data: JSON.stringify({ name: `Lead ${start + i}` }) })))
          .returning('id')
          .execute();
        const calls = await trx
          .insertInto('calls')
          .values(contacts.map((c) => ({ owner_id: user.id, campaign_id: campaign.id, contact_id: c.id, status: 'finished', action_status: 'interested', call_duration: 60, call_type: 'outbound', call_data: transcript })))
          .returning('id')
          .execute();
        for (const c of calls) await enqueueWebhookDeliveries(trx, c.id);
      });
    }
    console.log(`setup: ${N} finished calls and their delivery rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Baseline: the same number of POSTs with a similar body, CONCURRENCY loops in flight, no database.
    const agent = new Agent({ connections: 64 });
    const body = JSON.stringify({ name: 'Lead 1', email: 'lead@example.org', interested: null });
    let next = 0;
    const b0 = performance.now();
    const bCpu = process.cpuUsage();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        next++;
        const res = await request(receiverUrl, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
        await res.body.text();
      }
    }));
    const baselineRate = N / ((performance.now() - b0) / 1000);
    const baselineCpu = cpuMsSince(bCpu);
    await agent.close();

    received = 0;
    const worker = createWebhookWorker(deps, { concurrency: CONCURRENCY, pollMs: 5 });
    const profiler = await startProfile();
    // Read before the clock starts: scanning /proc takes a few ms.
    const wPg = postgresCpuMs(dbName);
    const w0 = performance.now();
    const wCpu = process.cpuUsage();
    worker.start();
    for (;;) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`.execute(db);
      if (rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const elapsed = (performance.now() - w0) / 1000;
    const workerCpu = cpuMsSince(wCpu);
    const workerPgCpu = postgresCpuMs(dbName) - wPg;
    await profiler?.stop();
    await worker.stop();
    const { rows: stats } = await sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status`.execute(db);
    const workerRate = N / elapsed;
    console.log(`deliveries by status: ${stats.map((s) => `${s.status}=${s.n}`).join(' ')}; receiver got ${received}`);
    console.log(`bare undici POST loop (${CONCURRENCY} in flight): ${baselineRate.toFixed(0)} req/s, ${perItem(baselineCpu)} µs CPU per request in this process (receiver included)`);
    console.log(`webhook worker (offline extractor, ${CONCURRENCY} in flight): ${workerRate.toFixed(0)} deliveries/s, ${perItem(workerCpu)} µs CPU per delivery in this process (receiver included) + ${perItem(workerPgCpu)} µs in PostgreSQL`);
    console.log(`ratio: ${(workerRate / baselineRate).toFixed(2)} (goal >= 0.5)`);
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
    server.closeAllConnections();
    server.close();
  }
}

await main();
