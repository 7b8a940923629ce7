/**
 * Dialer benchmark (issue 3): due contacts over 100 campaigns (concurrent_call_limit 50
 * each) with the simulator answering at once, on PostgreSQL. Measures calls started per
 * second and the highest concurrency per campaign for the real dialer (the rounds of
 * runDialerRound: sweep, claim under locks, windows, limits, call rows, provider start,
 * end events applied, reconcile), against a bare `FOR UPDATE SKIP LOCKED`
 * claim-and-insert loop on the same data in the same run.
 *
 * The dialer's per-call cost must not grow with the size of its queue, so one run
 * measures several queue sizes: at each, the same number of calls (BENCH_CALLS, default
 * 20,000) is dialled from a queue of that many due contacts, and the rate is compared
 * with the rate at the smallest size (goal >= 0.9).
 *
 * Compliance (issue 16): at the first size the dialer runs again with the law on (100,000
 * numbers on the do-not-call list, the default frequency caps, quiet hours), against the run
 * without in the same process: goal >= 0.85 (the checks cost at most 15% of throughput).
 *
 *   npm run bench:dialer                   20,000 and 200,000 due contacts
 *   BENCH_SCALE=full npm run bench:dialer  20,000, 200,000 and 2,000,000
 *   BENCH_CONTACTS=20000,500000            other sizes (comma-separated)
 *   BENCH_CALLS=20000 (calls measured at each size), BENCH_WORKERS=4 (parallel loops),
 *   BENCH_SUPPRESSED=100000 (numbers on the list in the compliance run), BENCH_DATABASE_URL
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { dialDueContacts } from '../src/modules/dialer/outbound/outbound.service.ts';
import { reconcileStaleCalls } from '../src/modules/dialer/call-events/reconciler.ts';
import { sweepCampaignStates } from '../src/modules/dialer/outbound/sweep.ts';
import { connectProviderEvents } from '../src/modules/dialer/call-events/provider-events.ts';
import { SimProvider } from '../src/voice/providers/sim.ts';
import { webhookSecret } from '../src/voice/signature.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const SIZES = process.env.BENCH_CONTACTS
  ? process.env.BENCH_CONTACTS.split(',').map((s) => Number(s.trim().replace(/_/g, '')))
  : process.env.BENCH_SCALE === 'full' ? [20_000, 200_000, 2_000_000] : [20_000, 200_000];
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const CAMPAIGNS = 100;
const SUPPRESSED = Number(process.env.BENCH_SUPPRESSED ?? 100_000);
const LIMIT = 50;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const BATCH = 200;
// As runDialerRound: at most this many claims between two sweeps.
const MAX_ROUNDS = 50;

interface SizeResult {
  n: number;
  baseRate: number;
  dialRate: number;
  violations: number;
  doubles: number;
  stuck: number;
}

const database = await createBenchDatabase('vc_bench_dialer');
const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: WORKERS * 2 + 4 });
const db = handle.db;
const results: SizeResult[] = [];
let complianceRatio: number | null = null;
try {
  await migrateToLatest(db);
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  await sql`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts)
    SELECT ${user.id}, 'Bench ' || g, 'Outbound', '+12125550100', ${LIMIT}, 1 FROM generate_series(1, ${CAMPAIGNS}) g`.execute(db);
  const reset = async (n: number) => {
    await sql`TRUNCATE calls, voice_events, contacts CASCADE`.execute(db);
    // Unique valid New York numbers; contacts spread evenly over the campaigns, all due
    // at the same instant (as after a bulk enqueue).
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data, calls_attempts)
      SELECT ${user.id}, c.id, '+1212' || (2000000 + g)::text, 'added_to_queue', now() - interval '1 minute', '{"name":"Bench"}'::jsonb, 0
      FROM generate_series(1, ${n}) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM campaigns) c ON c.k = g % ${CAMPAIGNS}`.execute(db);
    await sql`VACUUM ANALYZE contacts`.execute(db);
    await sql`VACUUM ANALYZE calls`.execute(db);
  };
  /** The account's law: off (calls around the clock, no caps, empty list) or on (the default caps, SUPPRESSED numbers listed, none of them due here). */
  const lawOn = async (on: boolean) => {
    await sql`DELETE FROM suppressions`.execute(db);
    await sql`
      INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week)
      VALUES (${user.id}, '00:00', '24:00', ${on ? 3 : 1000}, ${on ? 7 : 1000})
      ON CONFLICT (owner_id) DO UPDATE SET max_calls_per_day = EXCLUDED.max_calls_per_day, max_calls_per_week = EXCLUDED.max_calls_per_week`.execute(db);
    if (on) {
      await sql`
        INSERT INTO suppressions (owner_id, phone_number, reason, source)
        SELECT ${user.id}, '+1646' || (2000000 + g)::text, 'bench', 'import' FROM generate_series(1, ${SUPPRESSED}) g`.execute(db);
      await sql`VACUUM ANALYZE suppressions`.execute(db);
    }
  };
  await lawOn(false);
  const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/vc-bench-dialer' });
  const deps = depsFromDatabase(config, handle);
  const callsMade = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls`.execute(db)).rows[0]!.n);

  console.log(`dialer benchmark: ${SIZES.join(', ')} due contacts, ${CALLS} calls measured at each, ${CAMPAIGNS} campaigns, concurrent_call_limit ${LIMIT}, ${WORKERS} parallel loops, PostgreSQL`);
  for (const n of SIZES) {
    const target = Math.min(CALLS, n);

    // Baseline: the bare claim-and-insert loop, no locks, limits, windows or provider.
    await reset(n);
    let baseCount = 0;
    const baseStart = performance.now();
    await Promise.all(Array.from({ length: WORKERS }, async () => {
      while (baseCount < target) {
        const got = await db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ id: number; campaign_id: number; owner_id: number; phone_number: string }>`
            SELECT id, campaign_id, owner_id, phone_number FROM contacts
            WHERE status IN ('added_to_queue', 'call_scheduled') AND next_action_time <= now()
            ORDER BY next_action_time LIMIT ${Math.min(BATCH, target - baseCount)} FOR UPDATE SKIP LOCKED`.execute(trx);
          if (rows.length === 0) return 0;
          await sql`
            INSERT INTO calls (owner_id, campaign_id, contact_id, status, to_number, start_time, end_time, call_type)
            SELECT o, c, k, 'finished', t, now(), now(), 'outbound'
            FROM unnest(${rows.map((r) => r.owner_id)}::bigint[], ${rows.map((r) => r.campaign_id)}::bigint[], ${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.phone_number)}::text[]) AS u(o, c, k, t)`.execute(trx);
          await sql`UPDATE contacts SET status = 'finished', calls_attempts = calls_attempts + 1 WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
          return rows.length;
        });
        if (got === 0) return;
        baseCount += got;
      }
    }));
    const baseSeconds = (performance.now() - baseStart) / 1000;
    const baseCalls = await callsMade();

    /** One dialer run over n due contacts, until `target` calls started. */
    const dialerRun = async () => {
      // The dialer, with the simulator ending every call at once and its events applied in-process.
      await reset(n);
      const sim = new SimProvider({ secret: webhookSecret(config), clock: deps.clock, timeScale: 1e9, seed: 1 });
      deps.voice = sim;
      connectProviderEvents(deps);
      let peakSeen = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const { rows } = await sql<{ n: number }>`SELECT coalesce(max(n), 0)::int AS n FROM (SELECT count(*) AS n FROM calls WHERE status = 'in progress' GROUP BY campaign_id) x`.execute(db);
          peakSeen = Math.max(peakSeen, rows[0]!.n);
          await new Promise((r) => setTimeout(r, 100)); // sparse: the sampler must not load the database under test
        }
      })();
      let started = 0;
      const cpuStart = process.cpuUsage();
      const dialStart = performance.now();
      await Promise.all(Array.from({ length: WORKERS }, async () => {
        let idle = 0;
        // The rounds of runDialerRound (dialer.worker.ts), stopping once `target` calls started.
        while (idle < 3 && started < target) {
          await sweepCampaignStates({ deps });
          let claimed = 0;
          for (let i = 0; i < MAX_ROUNDS && started < target; i++) {
            const r = await dialDueContacts({ deps, batchSize: BATCH });
            started += r.started;
            claimed += r.claimed;
            if (r.claimed < BATCH || r.busy === r.claimed) break;
          }
          await reconcileStaleCalls({ deps });
          if (claimed === 0) {
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
      const dialCalls = await callsMade();
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
      sim.close();
      return { dialCalls, dialSeconds, peak, peakSeen, violations, doubles, stuck, cpu };
    };
    const { dialCalls, dialSeconds, peak, peakSeen, violations, doubles, stuck, cpu } = await dialerRun();
    if (n === SIZES[0]) {
      // The same run with the law on: SUPPRESSED numbers on the do-not-call list (checked in the
      // claim and before every dial), the default caps (counted under a lock per number), quiet
      // hours read in every contact's zone (whole day here, so the run is the same at any hour).
      await lawOn(true);
      const on = await dialerRun();
      await lawOn(false);
      const offRate = dialCalls / dialSeconds;
      const onRate = on.dialCalls / on.dialSeconds;
      complianceRatio = onRate / offRate;
      console.log(`\ncompliance at ${n} due contacts: without ${offRate.toFixed(0)} calls/s, with ${SUPPRESSED} suppressed numbers and caps ${onRate.toFixed(0)} calls/s; `
        + `ratio ${complianceRatio.toFixed(2)} (goal >= 0.85: the checks cost at most 15%); violations ${on.violations}, dialled twice ${on.doubles}`);
    }
    const baseRate = baseCalls / baseSeconds;
    const dialRate = dialCalls / dialSeconds;
    results.push({ n, baseRate, dialRate, violations, doubles, stuck });
    console.log(`\n${n} due contacts:`);
    console.log(`  baseline (bare SKIP LOCKED claim + insert): ${baseCalls} calls in ${baseSeconds.toFixed(2)} s = ${baseRate.toFixed(0)} calls/s`);
    console.log(`  dialer (sweep, locks, windows, limits, sim provider, end events, reconcile): ${dialCalls} calls in ${dialSeconds.toFixed(2)} s = ${dialRate.toFixed(0)} calls/s`);
    console.log(`  highest concurrency per campaign: ${peak} from call intervals, ${peakSeen} sampled live (limit ${LIMIT})`);
    console.log(`  dialer process CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of ${dialSeconds.toFixed(1)} s wall`);
    console.log(`  ratio dialer/baseline: ${(dialRate / baseRate).toFixed(2)} (for reference)`);
    console.log(`  limit violations: ${violations}; contacts dialled twice: ${doubles}; calls left in progress: ${stuck}`);
  }

  const first = results[0]!;
  console.log(`\nsummary (dialer rate against the rate at ${first.n} due contacts; goal >= 0.9, zero violations):`);
  for (const r of results) {
    console.log(`  ${String(r.n).padStart(9)} due: dialer ${r.dialRate.toFixed(0).padStart(6)} calls/s, ratio to ${first.n}: ${(r.dialRate / first.dialRate).toFixed(2)}; `
      + `baseline ${r.baseRate.toFixed(0)} calls/s, dialer/baseline ${(r.dialRate / r.baseRate).toFixed(2)}; `
      + `violations ${r.violations}, dialled twice ${r.doubles}, left in progress ${r.stuck}`);
  }
  if (complianceRatio !== null) console.log(`  compliance: with/without ${complianceRatio.toFixed(2)} (goal >= 0.85)`);
} finally {
  await handle.close();
  await database.drop();
}
