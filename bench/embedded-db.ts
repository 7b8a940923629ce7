/**
 * Why the embedded database runs on a worker thread behind the wire protocol
 * (DESIGN.md asks for this measurement). Compares, in one run:
 *  - in-process PGlite (queries on the calling thread), and
 *  - PGlite on a worker thread served over a unix socket, reached with `pg` (what we ship),
 * on query throughput and on how long the event loop is blocked while a heavy query runs.
 * Run: npm run bench:embedded
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/connection.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 5000);
const HEAVY = 'SELECT sum(i) FROM generate_series(1, 3000000) i';
const SETUP = [
  'CREATE TABLE t (id int PRIMARY KEY, v text)',
  "INSERT INTO t SELECT i, md5(i::text) FROM generate_series(1, 100000) i",
];

async function measure(name: string, query: (text: string, params?: unknown[]) => Promise<unknown>) {
  for (const s of SETUP) await query(s);
  let started = performance.now();
  const batch = 50;
  for (let i = 0; i < QUERIES; i += batch) {
    await Promise.all(Array.from({ length: batch }, (_, j) => query('SELECT v FROM t WHERE id = $1', [((i + j) % 100000) + 1])));
  }
  const qps = QUERIES / ((performance.now() - started) / 1000);
  // A timer that should fire every 10 ms while the heavy query runs; the longest gap
  // between its ticks is how long the event loop (and so every HTTP request) was blocked.
  started = performance.now();
  let last = started;
  let longestGap = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    ticks++;
  }, 10);
  await query(HEAVY);
  const end = performance.now();
  longestGap = Math.max(longestGap, end - last);
  clearInterval(timer);
  const heavyMs = end - started;
  console.log(`${name.padEnd(34)} ${qps.toFixed(0).padStart(7)} queries/s   heavy query ${heavyMs.toFixed(0)} ms, event loop blocked up to ${longestGap.toFixed(0)} ms (timer ticks ${ticks}/${Math.floor(heavyMs / 10)})`);
  return { qps, blockedMs: longestGap };
}

const dirA = mkdtempSync(join(tmpdir(), 'bench-emb-a-'));
const dirB = mkdtempSync(join(tmpdir(), 'bench-emb-b-'));
try {
  const inProcess = await PGlite.create({ dataDir: dirA });
  const a = await measure('in-process PGlite', (text, params) => inProcess.query(text, params as unknown[]));
  await inProcess.close();

  const handle = await openDatabase({ dataDir: dirB, poolSize: 10 });
  const b = await measure('worker thread + socket (shipped)', (text, params) => handle.pool.query(text, params as unknown[]));
  await handle.close();

  console.log(`throughput ratio shipped/in-process: ${(b.qps / a.qps).toFixed(2)}`);
  console.log(`event loop blocked during a heavy query: in-process ${a.blockedMs.toFixed(0)} ms vs shipped ${b.blockedMs.toFixed(0)} ms`);
} finally {
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
}
