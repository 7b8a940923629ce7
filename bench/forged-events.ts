/**
 * Forged vendor events (issue 23, finding 2): how long the service takes to refuse an
 * unauthenticated request built to be expensive, and whether /healthz is delayed meanwhile,
 * against baselines measured in the same run: a plain /healthz request and a small, correctly
 * signed Twilio status callback.
 *
 * Cases, each sent RUNS times over a plain socket (the body in one write, as an attacker sends it)
 * while another client polls /healthz every 5 ms:
 * - a 1 MiB forged form and the attack's 100,000-parameter form (589 KB): over the form limits,
 *   refused 413 before anything is parsed or signed;
 * - the costliest form the limits let through to the signature check (200 parameters, ~64 KiB): 403;
 * - a forged 4 MiB Retell event: 413; a forged 3.9 MiB one (parsed, then refused 401).
 * Goal (the forms of the attack): refusal under 50 ms (median) and /healthz's slowest answer while
 * forging at most 50 ms slower than its slowest in a quiet second polled the same way; the JSON cases are printed beside them. Exits 1 when a form misses the goal.
 * The attacker's client and the /healthz poller share this process with the service (bodies are
 * encoded before the clock starts), so the /healthz figure is an upper bound; the load average is
 * printed because a busy machine slows every figure alike.
 *
 *   npm run bench:forged-events            embedded PGlite in a temporary directory
 *   BENCH_RUNS=20                          runs per case (default 10)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { closeDeps, createDeps } from '../src/deps.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { connectProviderEvents } from '../src/modules/dialer/call-events/provider-events.ts';
import { twilioSignature } from '../src/voice/providers/twilio/twilio-signature.ts';
import { rawPost, watchHealth } from '../test/helpers/raw-http.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GOAL_MS = 50;
const SID = `AC${'c3'.repeat(16)}`;
const TOKEN = 'bench-twilio-auth-token';

const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-forged-'));
const config = loadConfig({
  DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', LOG_LEVEL: 'silent',
  TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_BASE_URL: 'http://127.0.0.1:9', RETELL_API_KEY: 'bench-retell-key',
});
const deps = await createDeps(config);
connectProviderEvents(deps);
const app = await buildApp(deps, { logger: false });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

try {
  await migrateToLatest(deps.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  (config as { PUBLIC_BASE_URL?: string }).PUBLIC_BASE_URL = baseUrl;
  const eventsPath = '/api/v1/voice/twilio/events';
  const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged+signature=' };

  // Baselines.
  const health: number[] = [];
  for (let i = 0; i < RUNS * 3; i++) {
    const started = performance.now();
    await (await fetch(`${baseUrl}/healthz`)).text();
    health.push(performance.now() - started);
  }
  const small = { CallSid: 'CAbench', CallStatus: 'ringing', AccountSid: SID };
  const signedSmall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const answer = await rawPost(port, eventsPath, { ...FORM, 'x-twilio-signature': twilioSignature(TOKEN, `${baseUrl}${eventsPath}`, new URLSearchParams(small)) }, new URLSearchParams(small).toString());
    if (answer.status !== 200) throw new Error(`the signed baseline answered ${answer.status}: ${answer.text}`);
    signedSmall.push(answer.ms);
  }
  const healthMs = median(health);
  const quiet = watchHealth(baseUrl, 5);
  await new Promise((r) => setTimeout(r, 1000));
  const quietSlowestMs = (await quiet.stop()).slowestMs;
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`baseline  GET /healthz ${ms(healthMs)} (median of ${health.length}), slowest while polled for 1 s without an attack ${ms(quietSlowestMs)}; small signed Twilio callback ${ms(median(signedSmall))}`);

  const form = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => `${name(i)}=${i % 10}`).join('&');
  const cases: { label: string; path: string; headers: Record<string, string>; body: string; status: number; goal?: true }[] = [
    { label: '1 MiB forged form', path: eventsPath, headers: FORM, body: form(100_000, (i) => `Param${i}`).slice(0, 1024 * 1024), status: 413, goal: true },
    { label: '100,000-param forged form', path: eventsPath, headers: FORM, body: form(100_000, (i) => `p${i.toString(36)}`), status: 413, goal: true },
    { label: '200-param ~64 KiB forged form', path: eventsPath, headers: FORM, body: form(200, (i) => `Param${i}_${'x'.repeat(310)}`), status: 403 },
    { label: '4 MiB forged Retell event', path: '/api/v1/voice/retell/events', headers: { 'content-type': 'application/json', 'x-retell-signature': `v=${Date.now()},d=${'0'.repeat(64)}` }, body: JSON.stringify({ event: 'call_ended', pad: 'x'.repeat(4 * 1024 * 1024) }), status: 413 },
    { label: '3.9 MiB forged Retell event', path: '/api/v1/voice/retell/events', headers: { 'content-type': 'application/json', 'x-retell-signature': `v=${Date.now()},d=${'0'.repeat(64)}` }, body: JSON.stringify({ event: 'call_ended', call: { call_id: 'x', transcript_object: Array.from({ length: 45_000 }, (_, i) => ({ role: 'user', content: `words ${i}`, words: [{ word: 'w', start: i, end: i + 0.5 }] })) } }), status: 401 },
  ];
  let failed = false;
  console.log(`${'case'.padEnd(34)} ${'bytes'.padStart(9)}  status  median refusal  vs /healthz  slowest /healthz meanwhile`);
  for (const c of cases) {
    const body = Buffer.from(c.body);
    const watch = watchHealth(baseUrl, 5);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const answer = await rawPost(port, c.path, c.headers, body);
      if (answer.status !== c.status) throw new Error(`${c.label}: expected ${c.status}, got ${answer.status}: ${answer.text.slice(0, 200)}`);
      times.push(answer.ms);
    }
    const { slowestMs } = await watch.stop();
    const m = median(times);
    if (c.goal && (m > GOAL_MS || slowestMs > quietSlowestMs + GOAL_MS)) failed = true;
    console.log(`${c.label.padEnd(34)} ${String(Buffer.byteLength(c.body)).padStart(9)}  ${c.status}     ${ms(m).padStart(10)}  ${`${(m / healthMs).toFixed(1)}x`.padStart(10)}  ${ms(slowestMs).padStart(10)}`);
  }
  console.log(`goal: the forged forms refused in under ${GOAL_MS} ms (median), /healthz meanwhile at most ${GOAL_MS} ms slower than without an attack: ${failed ? 'MISSED' : 'met'} (load average ${loadavg()[0]!.toFixed(1)})`);
  process.exitCode = failed ? 1 : 0;
} finally {
  await app.close();
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
}
