/**
 * Memory and liveness under the list attack of issue 23: four parallel `GET /api/v1/contacts/?limit=1000`
 * over contacts with large contact_data, against a real `voice-campaigns serve` on the embedded
 * database (the default; its PGlite worker thread is in the same process, so the process's RSS
 * counts the database too). Baseline, in the same run: the same process idle (its RSS, and
 * /healthz latency). Prints peak RSS and /healthz latency during the attack against it, and the ratios.
 *
 *   npm run bench:list-memory        BENCH_CONTACTS (1000), BENCH_CONTACT_DATA_BYTES (60000: just under the
 *                                    64 KiB limit; 1000000 reproduces the attack's rows, as stored before the limit),
 *                                    BENCH_ROUNDS (3 rounds of 4 parallel lists)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connection.ts';
import { LIST_MAX_BYTES } from '../src/shared/list-budget.ts';
import { signIn, startServe } from '../test/helpers/serve-process.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1000);
const DATA_BYTES = Number(process.env.BENCH_CONTACT_DATA_BYTES ?? 60_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARALLEL = 4;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const mb = (n: number) => `${n.toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;

async function healthzMs(url: string) {
  const t0 = performance.now();
  await (await fetch(`${url}/healthz`)).text();
  return performance.now() - t0;
}

const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-lists-'));
const service = await startServe(dataDir, { LOG_LEVEL: 'warn' });
try {
  const pid = service.child.pid!;
  const headers = await signIn(service.url);
  const campaign = await (await fetch(`${service.url}/api/v1/campaigns/`, { method: 'POST', headers, body: JSON.stringify({ title: 'Large rows', campaign_type: 'Outbound' }) })).json() as { id: number; owner_id: number };
  // Seeded through the running service's own socket (the CLI's path): rows as large as asked, in SQL.
  const handle = await openDatabase({ dataDir, poolSize: 1, joinRunningEmbedded: true });
  for (let start = 0; start < CONTACTS; start += 100) {
    await sql`INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data)
              SELECT ${campaign.owner_id}, ${campaign.id}, '+1212' || lpad((2000000 + i)::text, 7, '0'), 'new',
                     jsonb_build_object('n', i, 'notes', repeat('x', ${DATA_BYTES}))
                FROM generate_series(${start}::int, ${Math.min(CONTACTS, start + 100) - 1}::int) i`.execute(handle.db);
  }
  await handle.close();

  // Baseline: the same process, idle (after one small list so the route's code is warm).
  await (await fetch(`${service.url}/api/v1/contacts/?limit=1`, { headers })).text();
  await new Promise((r) => setTimeout(r, 2000));
  const idleRss = rssMb(pid);
  const idleHealth: number[] = [];
  for (let i = 0; i < 20; i++) idleHealth.push(await healthzMs(service.url));

  let peakRss = idleRss;
  const duringHealth: number[] = [];
  let attacking = true;
  const sampler = (async () => {
    while (attacking) {
      peakRss = Math.max(peakRss, rssMb(pid));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const prober = (async () => {
    while (attacking) {
      duringHealth.push(await healthzMs(service.url));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const answers: { bytes: number; items: number; count: number }[] = [];
  const t0 = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      const res = await fetch(`${service.url}/api/v1/contacts/?limit=1000`, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`list answered ${res.status}: ${text.slice(0, 200)}`);
      const body = JSON.parse(text) as { data: unknown[]; count: number };
      answers.push({ bytes: Buffer.byteLength(text), items: body.data.length, count: body.count });
    }));
  }
  const attackMs = performance.now() - t0;
  attacking = false;
  await Promise.all([sampler, prober]);
  await new Promise((r) => setTimeout(r, 2000));
  const afterRss = rssMb(pid);

  const largest = answers.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  console.log(`list memory: ${CONTACTS} contacts with ${DATA_BYTES} bytes of contact_data, ${ROUNDS} rounds of ${PARALLEL} parallel GET /contacts/?limit=1000 (${(attackMs / 1000).toFixed(1)} s)`);
  console.log(`  largest answer: ${(largest.bytes / 1024 / 1024).toFixed(2)} MiB, ${largest.items} of ${largest.count} contacts (budget ${LIST_MAX_BYTES / 1024 / 1024} MiB)`);
  console.log(`  RSS      idle ${mb(idleRss)}   peak during ${mb(peakRss)}   2 s after ${mb(afterRss)}   peak/idle ${(peakRss / idleRss).toFixed(2)}x`);
  console.log(`  /healthz idle median ${ms(median(idleHealth))} max ${ms(Math.max(...idleHealth))}   during median ${ms(median(duringHealth))} max ${ms(Math.max(...duringHealth))} (${duringHealth.length} probes)   max during/idle median ${(Math.max(...duringHealth) / median(idleHealth)).toFixed(1)}x`);
} finally {
  await service.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
