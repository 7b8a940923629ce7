/**
 * Experiments benchmark (issue 28): what the split costs the dialer. Due contacts over 20
 * campaigns are dialled by the real rounds (dialDueContacts: claim under locks, limits, call rows,
 * provider start with the simulator answering at once), once with no experiment and once with a
 * running experiment (the control and three prompt variants) on every campaign, in the same run
 * on PostgreSQL. Prints calls per second of each and their ratio (goal >= 0.9: the one read of the
 * running variants per round and the hash per contact cost little; a first, uncounted run warms up), and checks the experiment
 * run: every call has the variant its contact hashes to, and the shares are near the weights.
 *
 *   npm run bench:experiments       10,000 contacts per run
 *   BENCH_CONTACTS=50000, BENCH_WORKERS=2, BENCH_DATABASE_URL
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { SimProvider } from '../src/voice/providers/sim.ts';
import { webhookSecret } from '../src/voice/signature.ts';
import { assignVariant } from '../src/modules/quality/experiments/assignment.ts';
import { createBenchDatabase } from './support/bench-db.ts';
import { dialUntil } from './support/dial-until.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const CAMPAIGNS = 20;
const BATCH = 200;
const WEIGHTS = [40, 30, 20, 10];

const database = await createBenchDatabase('vc_bench_experiments');
const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: WORKERS * 2 + 4 });
const db = handle.db;
try {
  await migrateToLatest(db);
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  await sql`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts)
    SELECT ${user.id}, 'Bench ' || g, 'Outbound', '+12125550100', 0, 1 FROM generate_series(1, ${CAMPAIGNS}) g`.execute(db);
  await sql`
    INSERT INTO prompt_history (campaign_id, prompt_data, status, created_at, created_by_user_id, approved_by_user_id, approved_at)
    SELECT c.id, jsonb_build_object('prompt', 'Version ' || v || ' of ' || c.title), CASE WHEN v = 0 THEN 'auto_approved' ELSE 'pending' END, now(), ${user.id}, ${user.id}, now()
    FROM campaigns c CROSS JOIN generate_series(0, 3) v ORDER BY c.id, v DESC`.execute(db);
  await sql`
    INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week)
    VALUES (${user.id}, '00:00', '24:00', 1000, 1000) ON CONFLICT (owner_id) DO NOTHING`.execute(db);
  const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/vc-bench-experiments' });
  const deps = depsFromDatabase(config, handle);

  const reset = async () => {
    await sql`TRUNCATE calls, voice_events, contacts CASCADE`.execute(db);
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data, calls_attempts)
      SELECT ${user.id}, c.id, '+1212' || (2000000 + g)::text, 'added_to_queue', now() - interval '1 minute', '{"name":"Bench"}'::jsonb, 0
      FROM generate_series(1, ${CONTACTS}) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM campaigns) c ON c.k = g % ${CAMPAIGNS}`.execute(db);
    await sql`VACUUM ANALYZE contacts`.execute(db);
  };

  const run = async () => {
    await reset();
    const sim = new SimProvider({ secret: webhookSecret(config), clock: deps.clock, timeScale: 1e9, seed: 1 });
    const { started, seconds } = await dialUntil(deps, sim, { target: CONTACTS, workers: WORKERS, batch: BATCH });
    return { started, rate: started / seconds };
  };

  console.log(`experiments benchmark: ${CONTACTS} due contacts over ${CAMPAIGNS} campaigns, ${WORKERS} parallel loops, PostgreSQL`);
  // The experiments, written once; the runs alternate them stopped and running (A B A B after an
  // uncounted warm-up), since on a shared machine a run's order alone moved its rate by 15%.
  const { rows: experiments } = await sql<{ id: number; campaign_id: number }>`
    INSERT INTO experiments (owner_id, campaign_id, name, status, min_calls_per_variant, created_at, started_at)
    SELECT ${user.id}, id, 'Bench', 'stopped', 100, now(), now() FROM campaigns RETURNING id, campaign_id`.execute(db);
  // The control (the approved version) and the three pending versions of each campaign.
  await sql`
    INSERT INTO experiment_variants (experiment_id, position, kind, label, weight, prompt_history_id)
    SELECT e.id, v.position, CASE WHEN v.position = 0 THEN 'control' ELSE 'prompt' END, 'V' || v.position,
           (${WEIGHTS}::int[])[v.position + 1], v.id
    FROM experiments e JOIN LATERAL (SELECT id, (row_number() OVER (ORDER BY status <> 'auto_approved', id) - 1)::int AS position FROM prompt_history h WHERE h.campaign_id = e.campaign_id) v ON true`.execute(db);
  const running = (on: boolean) => sql`UPDATE experiments SET status = ${on ? 'running' : 'stopped'}`.execute(db);
  await run();
  const rates = { without: [] as number[], with: [] as number[] };
  for (let i = 0; i < 2; i++) {
    await running(false);
    rates.without.push((await run()).rate);
    await running(true);
    rates.with.push((await run()).rate);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const without = { started: CONTACTS, rate: mean(rates.without) };
  const withExperiments = { started: CONTACTS, rate: mean(rates.with) };

  // Every call has its contact's variant; the shares are near the weights.
  const variants = await db.selectFrom('experiment_variants').select(['id', 'experiment_id', 'weight', 'position']).orderBy('experiment_id').orderBy('position').execute();
  const byExperiment = new Map<number, { id: number; weight: number }[]>();
  for (const v of variants) byExperiment.set(Number(v.experiment_id), [...(byExperiment.get(Number(v.experiment_id)) ?? []), { id: Number(v.id), weight: v.weight }]);
  const experimentOf = new Map(experiments.map((e) => [Number(e.campaign_id), Number(e.id)]));
  const calls = await db.selectFrom('calls').select(['contact_id', 'campaign_id', 'experiment_variant_id']).execute();
  let wrong = 0;
  const counts = [0, 0, 0, 0];
  for (const c of calls) {
    const eid = experimentOf.get(Number(c.campaign_id))!;
    const list = byExperiment.get(eid)!;
    const expected = assignVariant(eid, Number(c.contact_id), list);
    if (Number(c.experiment_variant_id) !== expected.id) wrong++;
    counts[list.indexOf(expected)]!++;
  }
  const shares = counts.map((n) => n / calls.length);
  console.log(`without experiments: ${rates.without.map((r) => r.toFixed(0)).join(', ')} calls/s (mean ${without.rate.toFixed(0)})`);
  console.log(`with a running experiment on every campaign: ${rates.with.map((r) => r.toFixed(0)).join(', ')} calls/s (mean ${withExperiments.rate.toFixed(0)})`);
  console.log(`calls with the wrong variant: ${wrong}; shares ${shares.map((s) => `${(s * 100).toFixed(1)}%`).join(' / ')} for weights ${WEIGHTS.join(' / ')}`);
  console.log(`ratio with / without: ${(withExperiments.rate / without.rate).toFixed(2)} (goal >= 0.9)`);
  if (wrong > 0) process.exitCode = 1;
} finally {
  await handle.close();
  await database.drop();
}
