/**
 * Dashboard benchmark (issue 14): on PostgreSQL with 100,000 contacts and 200,000 calls, headless
 * Chromium (Debian's, CHROMIUM_PATH) measures the time to a usable calls page (the first page of
 * the table rendered, its first call's link visible) and to a filtered result (Status chosen, the
 * table showing only matching calls), against the API answering the same requests in the same
 * run. Goal: page time <= API time + 300 ms; initial JavaScript under 300 KB compressed.
 *
 *   npm run bench:ui                          BENCH_DATABASE_URL (default local PostgreSQL)
 *   BENCH_UI_CONTACTS=20000 npm run bench:ui  a quicker run (calls = 2 per contact)
 *   BENCH_UI_WATERFALL=1                      also prints the browser's resource timings of one calls page load
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { closeDeps, createDeps } from '../src/deps.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const CONTACTS = Number(process.env.BENCH_UI_CONTACTS ?? 100_000);
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 7);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = new URL('../ui/dist/', import.meta.url);

/** The JavaScript a first visit loads before any page chunk: the entry and its preloads, compressed. */
function initialJavaScriptKb(): number {
  const html = readFileSync(new URL('index.html', DIST), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(new URL(f, DIST))).length, 0) / 1024;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const database = await createBenchDatabase('vc_bench_ui');
const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-ui-'));
try {
  const deps = await createDeps(loadConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir, SECRET_KEY: 'bench-ui-secret-key-0123456789-abcdefghij', LOG_LEVEL: 'silent' }));
  await migrateToLatest(deps.db);
  const password = 'benchmark password';
  const user = await createUser(deps.db, { email: 'bench-ui@example.com', password });
  const { key } = await createApiKey(deps.db, user.id, 'bench');
  await sql`INSERT INTO campaigns (owner_id, title, campaign_type) SELECT ${user.id}, 'Campaign ' || i, 'Outbound' FROM generate_series(1, 100) i`.execute(deps.db);
  await sql`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data, creation_method)
    SELECT ${user.id}, c.id, '+1202' || lpad(i::text, 7, '0'), 'finished', jsonb_build_object('name', 'Person ' || i), 'import'
    FROM generate_series(1, ${CONTACTS}::int) i JOIN campaigns c ON c.owner_id = ${user.id} AND c.title = 'Campaign ' || (1 + i % 100)`.execute(deps.db);
  // Two calls per contact; one in 50 ended in voicemail (the filtered result).
  await sql`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, end_time, call_duration, cost, call_type, campaign_title, call_data)
    SELECT c.owner_id, c.campaign_id, c.id, CASE WHEN (c.id * 2 + n) % 50 = 0 THEN 'voicemail' ELSE 'finished' END, c.phone_number,
           now() - ((c.id * 2 + n) % 5000) * interval '1 minute', now() - ((c.id * 2 + n) % 5000) * interval '1 minute' + interval '1 minute',
           60, 0.12, 'outbound', 'Campaign', jsonb_build_object('transcript', jsonb_build_array(jsonb_build_object('role', 'user', 'text', 'hello ' || c.id)))
    FROM contacts c CROSS JOIN generate_series(0, 1) n WHERE c.owner_id = ${user.id}`.execute(deps.db);
  await sql`ANALYZE`.execute(deps.db);

  const app = await buildApp(deps, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  const signIn = await context.request.post('/api/v1/session', { data: { username: 'bench-ui@example.com', password }, headers: { 'x-requested-with': 'voice-campaigns' } });
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`);

  const apiTime = async (query: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/calls/?${query}`, { headers: { 'x-api-key': key } });
    await res.json();
    return performance.now() - t0;
  };
  const page = await context.newPage();
  await page.goto('/calls'); // warm: the browser's cache of the assets, the server's prepared statements
  await page.getByRole('link', { name: /^Call \d+$/ }).first().waitFor();
  const results = { pageReady: [] as number[], apiPage: [] as number[], filtered: [] as number[], apiFiltered: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    results.apiPage.push(await apiTime('skip=0&limit=25'));
    const t0 = performance.now();
    await page.goto('/calls');
    await page.getByRole('link', { name: /^Call \d+$/ }).first().waitFor();
    results.pageReady.push(performance.now() - t0);

    results.apiFiltered.push(await apiTime('skip=0&limit=25&status=voicemail'));
    const t1 = performance.now();
    await page.getByRole('combobox', { name: 'Statuses', exact: true }).click();
    // The dashboard says statuses as words (ui/src/format/statuses.ts): voicemail is 'Voicemail'.
    await page.getByRole('option', { name: 'Voicemail', exact: true }).click();
    const table = page.getByRole('table', { name: 'Calls' });
    await table.getByText('Finished', { exact: true }).first().waitFor({ state: 'detached' });
    await table.getByText('Voicemail', { exact: true }).first().waitFor();
    results.filtered.push(performance.now() - t1);
  }
  if (process.env.BENCH_UI_WATERFALL) {
    await page.goto('/calls');
    await page.getByRole('link', { name: /^Call \d+$/ }).first().waitFor();
    // The browser's own timings (this file is typed for Node, hence the structural types).
    const entries = await page.evaluate(() => {
      const timings = performance as unknown as { getEntriesByType(type: string): { name: string; startTime: number; responseEnd: number }[]; now(): number };
      return JSON.stringify([
        ...timings.getEntriesByType('resource').map((e) => ({ n: e.name.replace(/^https?:\/\/[^/]+/, ''), s: Math.round(e.startTime), e: Math.round(e.responseEnd) })),
        { n: 'now', s: Math.round(timings.now()), e: 0 },
      ]);
    });
    console.log(entries);
  }
  await browser.close();
  await app.close();
  await closeDeps(deps);

  const kb = initialJavaScriptKb();
  const ready = median(results.pageReady);
  const apiReady = median(results.apiPage);
  const filtered = median(results.filtered);
  const apiFiltered = median(results.apiFiltered);
  console.log(`dashboard benchmark: ${CONTACTS} contacts, ${CONTACTS * 2} calls on PostgreSQL; medians of ${RUNS} runs`);
  console.log(`  calls page usable (first page rendered, its first call's link visible): ${ready.toFixed(0)} ms; the API's same page: ${apiReady.toFixed(0)} ms; page - API = ${(ready - apiReady).toFixed(0)} ms (goal <= 300)`);
  console.log(`  filtered result (Status voicemail chosen to matching rows shown): ${filtered.toFixed(0)} ms; the API's same filter: ${apiFiltered.toFixed(0)} ms; page - API = ${(filtered - apiFiltered).toFixed(0)} ms (goal <= 300)`);
  console.log(`  initial JavaScript (entry and preloads, gzip): ${kb.toFixed(0)} KB (goal < 300 KB); every page is its own chunk, loaded on demand`);
  console.log(`  ratios page/API: ready ${(ready / apiReady).toFixed(1)}, filtered ${(filtered / apiFiltered).toFixed(1)} (for reference; the goal is the difference)`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
