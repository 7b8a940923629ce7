/**
 * Dialer benchmark (issue 3): N due contacts over 100 campaigns (concurrent_call_limit 50
 * each) with the simulator answering at once, on PostgreSQL. Measures calls started per
 * second and the highest concurrency per campaign for the real dialer (claim under
 * locks, windows, limits, call rows, provider start, end events applied), against a bare
 * `FOR UPDATE SKIP LOCKED` claim-and-insert loop on the same data in the same run.
 *
 *   npm run bench:dialer                  20,000 contacts
 *   BENCH_SCALE=full npm run bench:dialer 100,000 contacts
 *   BENCH_WORKERS=4 (parallel loops, default 4), BENCH_DATABASE_URL
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { dialDueContacts } from '../src/modules/dialer/dialer.service.ts';
import { inProcessDelivery } from '../src/modules/dialer/voice-events.service.ts';
import { SimProvider } from '../src/voice/providers/sim.ts';
import { webhookSecret } from '../src/voice/signature.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const N = Number(process.env.BENCH_CONTACTS ?? (process.env.BENCH_SCALE === 'full' ? 100_000 : 20_000));
const CAMPAIGNS = 100;
const LIMIT = 50;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const BATCH = 200;

const database = await createBenchDatabase('vc_bench_dialer');
const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: WORKERS * 2 + 4 });
const db = handle.db;
try {
  await migrateToLatest(db);
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  await sql`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts)
    SELECT ${user.id}, 'Bench ' || g, 'Outbound', '+12125550100', ${LIMIT}, 1 FROM generate_series(1, ${CAMPAIGNS}) g`.execute(db);
  const reset = async () => {
    await sql`TRUNCATE calls, voice_events CASCADE`.execute(db);
    await sql`DELETE FROM contacts`.execute(db);
    // Unique valid New York numbers; contacts spread evenly over the campaigns.
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data, calls_attempts)
      SELECT ${user.id}, c.id, '+1212' || (2000000 + g)::text, 'added_to_queue', now() - interval '1 minute', '{"name":"Bench"}'::jsonb, 0
      FROM generate_series(1, ${N}) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM campaigns) c ON c.k = g % ${CAMPAIGNS}`.execute(db);
    await sql`VACUUM ANALYZE contacts`.execute(db);
    await sql`VACUUM ANALYZE calls`.execute(db);
  };

  // Baseline: the bare claim-and-insert loop, no locks, limits, windows or provider.
  await reset();
  const baseStart = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    for (;;) {
      const n = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: number; campaign_id: number; owner_id: number; phone_number: string }>`
          SELECT id, campaign_id, owner_id, phone_number FROM contacts
          WHERE status IN ('added_to_queue', 'call_scheduled') AND next_action_time <= now()
          ORDER BY next_action_time LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`.execute(trx);
        if (rows.length === 0) return 0;
        await sql`
          INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, end_time, call_type)
          SELECT o, c, k, 'finished', t, now(), now(), 'outbound'
          FROM unnest(${rows.map((r) => r.owner_id)}::bigint[], ${rows.map((r) => r.campaign_id)}::bigint[], ${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.phone_number)}::text[]) AS u(o, c, k, t)`.execute(trx);
        await sql`UPDATE contacts SET status = 'finished', calls_attempts = calls_attempts + 1 WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
        return rows.length;
      });
      if (n === 0) return;
    }
  }));
  const baseSeconds = (performance.now() - baseStart) / 1000;
  const baseCalls = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls`.execute(db)).rows[0]!.n);

  // The dialer, with the simulator ending every call at once and its events applied in-process.
  await reset();
  const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/vc-bench-dialer' });
  const deps = depsFromDatabase(config, handle);
  const sim = new SimProvider({ secret: webhookSecret(config), clock: deps.clock, timeScale: 1e9, seed: 1 });
  deps.voice = sim;
  sim.setDelivery(inProcessDelivery(deps));
  let peakSeen = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await sql<{ n: number }>`SELECT coalesce(max(n), 0)::int AS n FROM (SELECT count(*) AS n FROM calls WHERE status = 'in progress' GROUP BY campaign_id) x`.execute(db);
      peakSeen = Math.max(peakSeen, rows[0]!.n);
      await new Promise((r) => setTimeout(r, 100)); // sparse: the sampler must not load the database under test
    }
  })();
  const cpuStart = process.cpuUsage();
  const dialStart = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    let idle = 0;
    while (idle < 3) {
      const r = await dialDueContacts({ deps, batchSize: BATCH });
      if (r.claimed === 0) {
        idle++;
        await sim.pump();
        await new Promise((res) => setTimeout(res, 5));
      } else idle = 0;
    }
  }));
  const dialSeconds = (performance.now() - dialStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  // Let the last events land before checking.
  for (let i = 0; i < 100 && sim.pendingCount() > 0; i++) await sim.pump();
  sampling = false;
  await sampler;
  const dialCalls = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls`.execute(db)).rows[0]!.n);
  // Highest concurrency per campaign from the recorded intervals (an end sorts before a start at the same instant).
  const { rows: peaks } = await sql<{ campaign_id: number; peak: number }>`
    SELECT campaign_id, max(running)::int AS peak FROM (
      SELECT campaign_id, sum(d) OVER (PARTITION BY campaign_id ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS running
      FROM (SELECT campaign_id, start_time AS t, 1 AS d FROM calls UNION ALL SELECT campaign_id, coalesce(end_time, 'infinity'), -1 FROM calls) e
    ) x GROUP BY campaign_id`.execute(db);
  const peak = Math.max(0, ...peaks.map((p) => p.peak));
  const violations = peaks.filter((p) => p.peak > LIMIT).length + (peakSeen > LIMIT ? 1 : 0);
  const doubles = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT contact_id FROM calls GROUP BY contact_id HAVING count(*) > 1) x`.execute(db)).rows[0]!.n);
  const stuck = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`.execute(db)).rows[0]!.n);

  const baseRate = baseCalls / baseSeconds;
  const dialRate = dialCalls / dialSeconds;
  console.log(`dialer benchmark: ${N} due contacts, ${CAMPAIGNS} campaigns, concurrent_call_limit ${LIMIT}, ${WORKERS} parallel loops, PostgreSQL`);
  console.log(`baseline (bare SKIP LOCKED claim + insert): ${baseCalls} calls in ${baseSeconds.toFixed(2)} s = ${baseRate.toFixed(0)} calls/s`);
  console.log(`dialer (locks, windows, limits, sim provider, end events): ${dialCalls} calls in ${dialSeconds.toFixed(2)} s = ${dialRate.toFixed(0)} calls/s`);
  console.log(`highest concurrency per campaign: ${peak} from call intervals, ${peakSeen} sampled live (limit ${LIMIT})`);
  console.log(`dialer process CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of ${dialSeconds.toFixed(1)} s wall`);
  console.log(`ratio dialer/baseline: ${(dialRate / baseRate).toFixed(2)} (goal >= 0.5)`);
  console.log(`limit violations: ${violations}; contacts dialled twice: ${doubles}; calls left in progress: ${stuck}`);
  sim.close();
} finally {
  await handle.close();
  await database.drop();
}
