/**
 * Import benchmark (issue 4): contacts/s from the first request to the task completed,
 * through POST /api/v1/contacts/bulk (requests of the maximum size, 10,000 items) and
 * through the CSV upload, against a bare batched multi-row INSERT of the same rows into
 * the same table in the same run. On PostgreSQL (BENCH_DATABASE_URL, a database of its
 * own created and dropped) and on the embedded database. Goal: ratio >= 0.6.
 * Prints the service's peak RSS (the service runs as a child process with the worker).
 *
 *   npm run bench:import                 100,000 contacts per path
 *   BENCH_SCALE=full npm run bench:import  adds 1,000,000
 *   BENCH_TARGETS=postgres|embedded      run only one database
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../src/db/connection.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { MAX_BULK_ITEMS } from '../src/modules/imports/imports.schemas.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const SIZES = process.env.BENCH_SCALE === 'full' ? [100_000, 1_000_000] : [100_000];
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres,embedded').split(',');
const BASELINE_BATCH = 2000;

const phone = (i: number) => `+1212${String(2_000_000 + i).padStart(7, '0')}`;
const data = (i: number) => ({ name: `Contact ${i}`, n: i });

if (process.argv.includes('--service')) await runService();
else await main();

/** The service under test: HTTP API plus the import worker, as `serve` will run them. */
async function runService() {
  const { loadConfig } = await import('../src/config.ts');
  const { createDeps } = await import('../src/deps.ts');
  const { buildApp } = await import('../src/app.ts');
  const { prepareDatabase } = await import('../src/server.ts');
  const { createImportWorker } = await import('../src/modules/imports/imports.worker.ts');
  const config = loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'warn' });
  const deps = await createDeps(config);
  await prepareDatabase(deps);
  const app = await buildApp(deps, { logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const worker = createImportWorker(deps, { pollMs: 20 });
  worker.start();
  // The baseline and the seeding run in this process, on its own pool: a second process on
  // the embedded database's socket would interleave protocol messages with the worker's.
  let ownerId = 0;
  process.on('message', async (message: { type: string; title?: string; campaignId?: number; n?: number }) => {
    if (message.type === 'rss') process.send!({ type: 'rss', maxRssKb: process.resourceUsage().maxRSS });
    if (message.type === 'setup') {
      const user = await createUser(deps.db, { email: `bench-import-${Date.now()}@example.com`, password: 'benchmark pass' });
      ownerId = user.id;
      process.send!({ type: 'setup', apiKey: (await createApiKey(deps.db, user.id, 'bench')).key });
    }
    if (message.type === 'campaign') {
      const row = await deps.db.insertInto('campaigns').values({ owner_id: ownerId, title: message.title!, campaign_type: 'Outbound' }).returning('id').executeTakeFirstOrThrow();
      process.send!({ type: 'campaign', id: row.id });
    }
    if (message.type === 'baseline') process.send!({ type: 'baseline', ...(await bareInsert(deps.db, ownerId, message.campaignId!, message.n!)) });
    if (message.type === 'stop') {
      await app.close();
      await worker.stop();
      await deps.database.close();
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url });
}

interface Service {
  child: ChildProcess;
  url: string;
  ask<T>(message: Record<string, unknown>): Promise<T>;
  peakRssMb(): Promise<number>;
  stop(): Promise<void>;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const child = fork(fileURLToPath(import.meta.url), ['--service'], { env: { ...process.env, ...env }, execArgv: ['--import', 'tsx'] });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the service exited with code ${code} before it was ready`);
  });
  const [ready] = (await Promise.race([once(child, 'message'), exited])) as [{ type: string; url: string }];
  exited.catch(() => {});
  return {
    child,
    url: ready.url,
    async ask<T>(message: Record<string, unknown>) {
      child.send(message);
      const [answer] = (await once(child, 'message')) as [T];
      return answer;
    },
    async peakRssMb() {
      child.send({ type: 'rss' });
      const [m] = (await once(child, 'message')) as [{ maxRssKb: number }];
      return m.maxRssKb / 1024;
    },
    async stop() {
      child.send({ type: 'stop' });
      await once(child, 'exit');
    },
  };
}

async function waitForTasks(service: Service, apiKey: string, taskIds: number[]) {
  let created = 0;
  for (const id of taskIds) {
    for (;;) {
      const res = await fetch(`${service.url}/api/v1/contacts/bulk/${id}`, { headers: { 'x-api-key': apiKey } });
      const body = (await res.json()) as { status: string; created: number; failure_reason: string | null };
      if (body.status === 'failed') throw new Error(`task ${id} failed: ${body.failure_reason}`);
      if (body.status === 'completed') {
        created += body.created;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return created;
}

async function viaBulk(service: Service, apiKey: string, campaignId: number, n: number) {
  const started = performance.now();
  const tasks: number[] = [];
  for (let start = 0; start < n; start += MAX_BULK_ITEMS) {
    const items = [];
    for (let i = start; i < Math.min(n, start + MAX_BULK_ITEMS); i++) items.push({ phone_number: phone(i), campaign_id: campaignId, contact_data: data(i) });
    const res = await fetch(`${service.url}/api/v1/contacts/bulk`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(items) });
    if (res.status !== 200) throw new Error(`bulk: ${res.status} ${await res.text()}`);
    tasks.push(((await res.json()) as { task_id: number }).task_id);
  }
  const answered = (performance.now() - started) / 1000;
  const created = await waitForTasks(service, apiKey, tasks);
  return { seconds: (performance.now() - started) / 1000, created, answered };
}

async function writeCsv(path: string, n: number) {
  const out = createWriteStream(path);
  out.write('phone,name,n\n');
  for (let i = 0; i < n; i++) {
    if (!out.write(`${phone(i)},Contact ${i},${i}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function viaCsv(service: Service, apiKey: string, campaignId: number, file: string) {
  const started = performance.now();
  const form = new FormData();
  form.append('campaign_id', String(campaignId));
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'bench.csv');
  const res = await fetch(`${service.url}/api/v1/contacts/import/csv`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  if (res.status !== 200) throw new Error(`csv: ${res.status} ${await res.text()}`);
  const answered = (performance.now() - started) / 1000;
  const created = await waitForTasks(service, apiKey, [((await res.json()) as { task_id: number }).task_id]);
  return { seconds: (performance.now() - started) / 1000, created, answered };
}

/** The baseline: the same rows, already E.164, in batched multi-row INSERTs from this process. */
async function bareInsert(db: Db, ownerId: number, campaignId: number, n: number) {
  const started = performance.now();
  for (let start = 0; start < n; start += BASELINE_BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + BASELINE_BATCH); i++) {
      rows.push({ owner_id: ownerId, campaign_id: campaignId, phone_number: phone(i), status: 'new', contact_data: JSON.stringify(data(i)), creation_method: 'import' });
    }
    await db.insertInto('contacts').values(rows).onConflict((oc) => oc.columns(['campaign_id', 'phone_number']).doNothing()).execute();
  }
  return { seconds: (performance.now() - started) / 1000, created: n };
}

async function runTarget(name: string, env: Record<string, string>, csvFiles: Map<number, string>) {
  const service = await startService(env);
  try {
    const { apiKey: key } = await service.ask<{ apiKey: string }>({ type: 'setup' });
    const campaign = async (title: string) => (await service.ask<{ id: number }>({ type: 'campaign', title })).id;
    for (const n of SIZES) {
      const baseline = await service.ask<{ seconds: number; created: number }>({ type: 'baseline', campaignId: await campaign(`baseline ${n}`), n });
      const bulk = await viaBulk(service, key, await campaign(`bulk ${n}`), n);
      const csv = await viaCsv(service, key, await campaign(`csv ${n}`), csvFiles.get(n)!);
      const rate = (r: { seconds: number; created: number }) => r.created / r.seconds;
      const line = (label: string, r: { seconds: number; created: number; answered?: number }) =>
        `  ${label.padEnd(28)} ${String(r.created).padStart(9)} contacts in ${r.seconds.toFixed(2).padStart(7)} s = ${rate(r).toFixed(0).padStart(7)} contacts/s` +
        (label.startsWith('bare') ? '' : `   ratio vs bare INSERT ${(rate(r) / rate(baseline)).toFixed(2)} (answered after ${r.answered!.toFixed(2)} s)`);
      console.log(`\n${name}, ${n.toLocaleString('en')} contacts`);
      console.log(line('bare multi-row INSERT', baseline));
      console.log(line('POST /contacts/bulk', bulk));
      console.log(line('CSV upload', csv));
      if (bulk.created !== n || csv.created !== n) console.log(`  WARNING: created ${bulk.created} / ${csv.created} of ${n}`);
    }
    console.log(`  service peak RSS: ${(await service.peakRssMb()).toFixed(0)} MiB`);
  } finally {
    await service.stop();
  }
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const csvFiles = new Map<number, string>();
  for (const n of SIZES) {
    const file = join(tmp, `contacts-${n}.csv`);
    await writeCsv(file, n);
    csvFiles.set(n, file);
  }
  console.log(`import benchmark: sizes ${SIZES.join(', ')}; bulk requests of ${MAX_BULK_ITEMS} items; goal ratio >= 0.6`);
  try {
    if (TARGETS.includes('postgres')) {
      const database = await createBenchDatabase('vc_bench_import');
      try {
        await runTarget('PostgreSQL', { DATABASE_URL: database.url, DATA_DIR: join(tmp, 'pg-data') }, csvFiles);
      } finally {
        await database.drop();
      }
    }
    if (TARGETS.includes('embedded')) {
      const dataDir = join(tmp, 'data');
      await runTarget('embedded (PGlite)', { DATA_DIR: dataDir, DATABASE_URL: '' }, csvFiles);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
