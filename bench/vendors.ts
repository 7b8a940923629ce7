/**
 * Vendor dialling benchmark (issue 13): due contacts over 20 campaigns dialled by the real
 * dialer worker through the fake Vapi (answering at once, short calls), against the same
 * campaigns dialled through the simulator in the same run, both under the same cap on calls
 * in progress. Both runs go through the whole service: the dialer worker in real time, the
 * app listening on 127.0.0.1, Vapi's signed server messages posted over HTTP to the events
 * route (the simulator's events take its own, in-process path).
 *
 * The cap is held by different parts of the service in the two runs, on purpose: for the
 * simulator by MAX_CONCURRENT_CALLS (it has no vendor limits), for Vapi by the vendor pacing
 * alone (VAPI_MAX_CONCURRENT_CALLS = the fake's limit, MAX_CONCURRENT_CALLS off), which is what
 * must keep the vendor from refusing. Goal: vendor rate >= 0.8 of the simulator's, no refusal
 * by the fake (cap violation), no two vendor calls for one of our call ids. Exits 1 otherwise
 * (a rate under the goal is printed, not fatal: it depends on the machine).
 *
 *   npm run bench:vendors                        5,000 contacts per run, embedded PGlite
 *   BENCH_VENDOR_CONTACTS=500                    fewer contacts (quick runs)
 *   BENCH_DATABASE_URL=postgres://...            PostgreSQL (a throw-away database on that server)
 *   BENCH_CAP=50 (calls in progress), BENCH_TALK_MS=20 (the fake's call length), BENCH_VAPI_CPS=0
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { closeDeps, createDeps } from '../src/deps.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createDialerWorker } from '../src/modules/dialer/dialer.worker.ts';
import { connectProviderEvents } from '../src/modules/dialer/call-events/provider-events.ts';
import { startFakeVapi } from '../test/fakes/vapi.ts';
import { createBenchDatabase } from './support/bench-db.ts';
import { latencies, timeRoute, timeStartCalls } from './support/latencies.ts';

const CONTACTS = Number((process.env.BENCH_VENDOR_CONTACTS ?? '5000').replace(/_/g, ''));
const CAMPAIGNS = 20;
const CAP = Number(process.env.BENCH_CAP ?? 50);
const TALK_MS = Number(process.env.BENCH_TALK_MS ?? 20);
const VAPI_CPS = Number(process.env.BENCH_VAPI_CPS ?? 0);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);
const KEY = 'bench-vapi-key';
const SECRET = 'bench-vapi-server-secret';

interface RunResult {
  label: string;
  calls: number;
  seconds: number;
  rate: number;
  /** Highest number of calls in progress at once, from our call rows' intervals. */
  peakRows: number;
  /** Dialling rounds that started calls (distinct start times). */
  rounds: number;
  /** Mean time a call held its line on our side: from its start to its row's last update (its end). */
  holdMs: number;
  /** Contacts with more than one call row. */
  doubles: number;
  unfinished: number;
}

const pgUrl = process.env.BENCH_DATABASE_URL;
const database = pgUrl ? await createBenchDatabase('vc_bench_vendors') : null;
const dataDir = mkdtempSync(join(tmpdir(), 'vc-bench-vendors-'));
const config = loadConfig({
  ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
  DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent',
  VOICE_PROVIDER: 'sim', SIM_TIME_SCALE: '1000000', DIALER_TICK_MS: '50',
  VAPI_API_KEY: KEY, VAPI_WEBHOOK_SECRET: SECRET, VAPI_BASE_URL: 'http://127.0.0.1:9', VAPI_PHONE_NUMBER_ID: 'pn-bench',
  VAPI_MAX_CONCURRENT_CALLS: String(CAP), VAPI_CALLS_PER_SECOND: String(VAPI_CPS),
});
const deps = await createDeps(config);
connectProviderEvents(deps);
const app = await buildApp(deps, { logger: false });
const timings = latencies();
timeRoute(app, '/api/v1/voice/vapi/events', timings);
timeStartCalls(deps, timings);
let exitCode = 0;
try {
  await migrateToLatest(deps.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const fake = await startFakeVapi({
    apiKey: KEY, webhookSecret: SECRET, serverUrl: `${baseUrl}/api/v1/voice/vapi/events`,
    phoneNumbers: { 'pn-bench': '+12125550100' }, maxConcurrent: CAP, ringMs: 0, talkMs: TALK_MS, timeScale: 1,
  });
  // As test/helpers/vendor-scene.ts: adapters are built on first use, from the config as it is then.
  const mutable = config as { PUBLIC_BASE_URL?: string; VAPI_BASE_URL: string; MAX_CONCURRENT_CALLS: number };
  mutable.PUBLIC_BASE_URL = baseUrl;
  mutable.VAPI_BASE_URL = fake.url;
  const user = await createUser(deps.db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  // Calls around the clock and without caps: the benchmark runs at any hour and measures dialling, not the law.
  await sql`INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week) VALUES (${user.id}, '00:00', '24:00', 1000, 1000)`.execute(deps.db);
  const db = deps.db;

  /** CAMPAIGNS campaigns (with an assistant of `provider`, or none) and CONTACTS due contacts spread over them. */
  async function seed(run: number, provider: 'vapi' | null): Promise<number[]> {
    // The previous run's campaigns leave the dialer's view (their routes would count as in use).
    await sql`UPDATE campaigns SET is_archive = true`.execute(db);
    let assistantId: number | null = null;
    if (provider) {
      const { rows } = await sql<{ id: number }>`
        INSERT INTO assistants (owner_id, name, provider, first_message, system_prompt, max_duration_seconds, action_status_rules)
        VALUES (${user.id}, 'Bench', ${provider}, 'Hi {{contact.name}}, this is {{campaign.title}}.', 'You call {{contact.name}}.', 300, '[]')
        RETURNING id`.execute(db);
      assistantId = rows[0]!.id;
    }
    const { rows: campaigns } = await sql<{ id: number }>`
      INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts, assistant_id)
      SELECT ${user.id}, 'Bench ' || ${run}::int || '-' || g, 'Outbound', '+12125550100', 0, 1, ${assistantId}::bigint
      FROM generate_series(1, ${CAMPAIGNS}) g RETURNING id`.execute(db);
    const ids = campaigns.map((c) => c.id);
    // Unique valid New York numbers, due now (as after a bulk enqueue).
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data, calls_attempts)
      SELECT ${user.id}, (${ids}::bigint[])[1 + g % ${CAMPAIGNS}], '+1212' || (${2_000_000 + run * 1_000_000}::int + g)::text,
        'added_to_queue', now() - interval '1 minute', '{"name":"Bench"}'::jsonb, 0
      FROM generate_series(1, ${CONTACTS}) g`.execute(db);
    await sql`ANALYZE contacts`.execute(db);
    await sql`ANALYZE calls`.execute(db);
    return ids;
  }

  /** Starts the dialer worker and waits until every contact of `ids` has had its call ended. */
  async function dial(label: string, ids: number[], onPoll: () => void = () => {}): Promise<RunResult> {
    const worker = createDialerWorker(deps);
    const started = performance.now();
    worker.start();
    let unfinished = CONTACTS;
    while (performance.now() - started < TIMEOUT_MS) {
      await new Promise((r) => setTimeout(r, 200));
      onPoll();
      const { rows } = await sql<{ n: number }>`
        SELECT (SELECT count(*) FROM contacts WHERE campaign_id = ANY(${ids}::bigint[]) AND status IN ('added_to_queue', 'call_scheduled', 'in progress'))::int
          + (SELECT count(*) FROM calls WHERE campaign_id = ANY(${ids}::bigint[]) AND status = 'in progress')::int AS n`.execute(db);
      unfinished = rows[0]!.n;
      if (unfinished === 0) break;
    }
    await worker.stop();
    const { rows: [span] } = await sql<{ n: number; first: Date | null; last: Date | null }>`
      SELECT count(*)::int AS n, min(start_time) AS first, max(start_time) AS last FROM calls WHERE campaign_id = ANY(${ids}::bigint[])`.execute(db);
    // Highest number in progress at once, from the rows' intervals (an end sorts before a start at the same instant).
    const { rows: [peak] } = await sql<{ peak: number }>`
      SELECT coalesce(max(running), 0)::int AS peak FROM (
        SELECT sum(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS running FROM (
          SELECT start_time AS t, 1 AS d FROM calls WHERE campaign_id = ANY(${ids}::bigint[])
          UNION ALL SELECT coalesce(end_time, 'infinity'), -1 FROM calls WHERE campaign_id = ANY(${ids}::bigint[])) e) x`.execute(db);
    const { rows: [doubles] } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT contact_id FROM calls WHERE campaign_id = ANY(${ids}::bigint[]) GROUP BY contact_id HAVING count(*) > 1) x`.execute(db);
    const { rows: [line] } = await sql<{ rounds: number; hold: number | null }>`
      SELECT count(DISTINCT start_time)::int AS rounds, avg(extract(epoch FROM updated_at - start_time) * 1000)::float AS hold
      FROM calls WHERE campaign_id = ANY(${ids}::bigint[])`.execute(db);
    const seconds = span!.first && span!.last ? (span!.last.getTime() - span!.first.getTime()) / 1000 : 0;
    return { label, calls: span!.n, seconds, rate: seconds > 0 ? (span!.n - 1) / seconds : 0, peakRows: peak!.peak, rounds: line!.rounds, holdMs: line!.hold ?? 0, doubles: doubles!.n, unfinished };
  }

  const where = database ? 'PostgreSQL' : 'embedded PGlite';
  console.log(`vendor benchmark: ${CONTACTS} due contacts over ${CAMPAIGNS} campaigns per run, cap ${CAP} calls in progress in both runs, ${where}`);
  console.log(`  run A (baseline): simulator (SIM_TIME_SCALE 1e6, calls end at once), cap held by MAX_CONCURRENT_CALLS=${CAP}`);
  console.log(`  run B: fake Vapi over HTTP (ringMs 0, talkMs ${TALK_MS}, its limit maxConcurrent ${CAP}), cap held by the vendor pacing alone: `
    + `VAPI_MAX_CONCURRENT_CALLS=${CAP}, VAPI_CALLS_PER_SECOND=${VAPI_CPS} (0 = no rate limit), MAX_CONCURRENT_CALLS=0`);

  mutable.MAX_CONCURRENT_CALLS = CAP;
  const sim = await dial('A simulator', await seed(1, null));
  mutable.MAX_CONCURRENT_CALLS = 0;
  let failedDeliveries = 0;
  let deliveries = 0;
  // The fake keeps every message it sent: counted and dropped as the run goes, to keep memory flat.
  const drain = () => {
    deliveries += fake.deliveries.length;
    failedDeliveries += fake.deliveries.filter((d) => d.status === null || d.status >= 300).length;
    fake.deliveries.length = 0;
  };
  const vapi = await dial('B fake Vapi', await seed(2, 'vapi'), drain);
  await fake.idle();
  drain();

  const callIdOf = (request: Record<string, unknown>) => {
    const r = request as { assistant?: { metadata?: { call_id?: number } }; assistantOverrides?: { metadata?: { call_id?: number } } };
    return r.assistantOverrides?.metadata?.call_id ?? r.assistant?.metadata?.call_id ?? null;
  };
  const perCallId = new Map<number | null, number>();
  for (const c of fake.calls) perCallId.set(callIdOf(c.request), (perCallId.get(callIdOf(c.request)) ?? 0) + 1);
  const duplicates = [...perCallId].filter(([id, n]) => id !== null && n > 1).reduce((a, [, n]) => a + n - 1, 0);
  const withoutId = perCallId.get(null) ?? 0;
  const createdAt = fake.calls.map((c) => Date.parse(c.call.createdAt)).sort((a, b) => a - b);
  const vendorSeconds = createdAt.length > 1 ? (createdAt.at(-1)! - createdAt[0]!) / 1000 : 0;
  const vendorRate = vendorSeconds > 0 ? (createdAt.length - 1) / vendorSeconds : 0;

  console.log('');
  for (const r of [sim, vapi]) {
    console.log(`${r.label}: ${r.calls} calls started in ${r.seconds.toFixed(2)} s (first to last start) = ${r.rate.toFixed(0)} calls/s; `
      + `peak in progress (our rows) ${r.peakRows} (cap ${CAP}); contacts called twice ${r.doubles}; left unfinished ${r.unfinished}`);
    const ceiling = r.holdMs > 0 ? (CAP * 1000) / r.holdMs : 0;
    console.log(`  ${r.rounds} dialling rounds started calls (${(r.calls / Math.max(1, r.rounds)).toFixed(1)} calls each); a call held its line ${r.holdMs.toFixed(0)} ms on average `
      + `(start to its row's end), so the cap allows at most ${ceiling.toFixed(0)} calls/s: reached ${ceiling > 0 ? ((100 * r.rate) / ceiling).toFixed(0) : '-'}%`);
  }
  const post = timings.take('startCall');
  const route = timings.take('route');
  console.log(`  Vapi latencies seen by the service: POST /call mean ${post.mean.toFixed(1)} ms (p95 ${post.p95.toFixed(1)}) over ${post.n}; `
    + `events route mean ${route.mean.toFixed(1)} ms (p95 ${route.p95.toFixed(1)}) over ${route.n} messages (4 per call, one after another)`);
  console.log(`  as the fake Vapi saw it: ${fake.calls.length} calls created, ${vendorRate.toFixed(0)} calls/s; peak concurrency ${fake.peakConcurrency} (cap ${CAP}); `
    + `refusals (cap violations) ${fake.refusals}; server messages ${deliveries}, not accepted ${failedDeliveries}`);
  console.log(`  duplicate vendor calls (same metadata call_id): ${duplicates}; vendor calls without our call id: ${withoutId}`);
  const ratio = sim.rate > 0 ? vapi.rate / sim.rate : 0;
  console.log(`\nratio vendor/sim (calls started per second, cap ${CAP} in both): ${ratio.toFixed(2)} (goal >= 0.8)${ratio < 0.8 ? '  BELOW GOAL' : ''}`);
  const problems = [
    fake.refusals > 0 && `${fake.refusals} cap violations (the fake refused)`,
    fake.peakConcurrency > CAP && `vendor peak ${fake.peakConcurrency} over the cap ${CAP}`,
    duplicates > 0 && `${duplicates} duplicate vendor calls`,
    withoutId > 0 && `${withoutId} vendor calls without our call id`,
    sim.doubles + vapi.doubles > 0 && 'contacts called twice',
    sim.unfinished + vapi.unfinished > 0 && 'contacts left unfinished (timeout)',
  ].filter(Boolean);
  if (problems.length) {
    console.log(`FAILED: ${problems.join('; ')}`);
    exitCode = 1;
  }
  await fake.close();
} finally {
  await app.close();
  await closeDeps(deps);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
