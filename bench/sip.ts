/**
 * SIP trunk benchmark (issue 29): what sending a campaign's calls through the customer's trunk
 * costs the dialer. The same due contacts over 100 campaigns are dialled three ways, in
 * alternating rounds in one process on PostgreSQL:
 *   - plain: the vendor's own telephony (no campaign_sip), the baseline;
 *   - trunk: every campaign with campaign_sip and a SIP trunk (its caller IDs, its sealed password
 *     opened for each round's calls, the route built per call, the caller ID kept on the call);
 *   - trunk + vendor number: the same on a vendor that calls through a trunk only from a number it
 *     knows (Vapi, Retell): the number is made once (one vendor request for the whole run) and
 *     every call reads it back (sip_trunk_vendor_numbers).
 * The simulator answers at once and its events are applied in-process, as in bench:dialer.
 * Figures: calls started per second, the ratio of each trunk way to plain (median of the rounds;
 * goal >= 0.9), and checks: every trunk call had its route, one vendor request in all.
 *
 *   npm run bench:sip     BENCH_CALLS=5000 (per run), BENCH_ROUNDS=3, BENCH_WORKERS=4, BENCH_DATABASE_URL
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { SimProvider } from '../src/voice/providers/sim.ts';
import type { SipNumbers, StartCallRequest } from '../src/voice/provider.ts';
import { webhookSecret } from '../src/voice/signature.ts';
import { createBenchDatabase } from './support/bench-db.ts';
import { dialUntil } from './support/dial-until.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const CAMPAIGNS = 100;
const BATCH = 200;
type Way = 'plain' | 'trunk' | 'trunk + vendor number';
const WAYS: Way[] = ['plain', 'trunk', 'trunk + vendor number'];

const database = await createBenchDatabase('vc_bench_sip');
const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: WORKERS * 2 + 4 });
const db = handle.db;
try {
  await migrateToLatest(db);
  const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/vc-bench-sip' });
  const deps = depsFromDatabase(config, handle);
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  await sql`
    INSERT INTO account_compliance (owner_id, quiet_hours_from, quiet_hours_to, max_calls_per_day, max_calls_per_week)
    VALUES (${user.id}, '00:00', '24:00', 1000, 1000)`.execute(db);
  const trunk = await db.insertInto('sip_trunks').values({
    owner_id: user.id, name: 'Bench carrier', username: 'acme', password: deps.secrets.seal('bench-trunk-password'), gateways: [], caller_ids: ['+12125550150'],
  }).returning('id').executeTakeFirstOrThrow();
  await sql`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, concurrent_call_limit, max_call_attempts)
    SELECT ${user.id}, 'Bench ' || g, 'Outbound', '+12125550100', 50, 1 FROM generate_series(1, ${CAMPAIGNS}) g`.execute(db);

  const prepare = async (way: Way) => {
    await sql`TRUNCATE calls, voice_events, contacts, sip_trunk_vendor_numbers CASCADE`.execute(db);
    const trunked = way !== 'plain';
    await sql`UPDATE campaigns SET campaign_sip = ${trunked ? 'sip:trunk.example.com;transport=tls' : null}, sip_trunk_id = ${trunked ? trunk.id : null}`.execute(db);
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, next_action_time, contact_data, calls_attempts)
      SELECT ${user.id}, c.id, '+1212' || (2000000 + g)::text, 'added_to_queue', now() - interval '1 minute', '{"name":"Bench"}'::jsonb, 0
      FROM generate_series(1, ${CALLS}) g JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM campaigns) c ON c.k = g % ${CAMPAIGNS}`.execute(db);
    await sql`VACUUM ANALYZE contacts`.execute(db);
  };

  const run = async (way: Way) => {
    await prepare(way);
    const sim = new SimProvider({ secret: webhookSecret(config), clock: deps.clock, timeScale: 1e9, seed: 1 });
    let routed = 0;
    let vendorRequests = 0;
    const startCall = sim.startCall.bind(sim);
    sim.startCall = async (req: StartCallRequest) => {
      if (req.sip) routed++;
      return startCall(req);
    };
    if (way === 'trunk + vendor number') {
      const numbers: SipNumbers = { provision: async () => ({ credentialId: `cred-${++vendorRequests}`, numberId: `num-${vendorRequests}` }) };
      Object.assign(sim, { sipNumbers: numbers });
    }
    const { seconds } = await dialUntil(deps, sim, { target: CALLS, workers: WORKERS, batch: BATCH });
    const calls = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls`.execute(db)).rows[0]!.n);
    const fromTrunk = Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE from_number = '+12125550150'`.execute(db)).rows[0]!.n);
    return { rate: calls / seconds, calls, seconds, routed, fromTrunk, vendorRequests };
  };

  console.log(`SIP trunk benchmark: ${CALLS} due contacts per run over ${CAMPAIGNS} campaigns, ${WORKERS} parallel loops, ${ROUNDS} alternating rounds, PostgreSQL`);
  // An uncounted warm-up first (a cold first run is slower whatever it dials), then alternating rounds.
  await run('trunk');
  const rates = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
  const problems: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const line: string[] = [];
    for (const way of round % 2 === 1 ? WAYS : [...WAYS].reverse()) {
      const r = await run(way);
      rates.get(way)!.push(r.rate);
      line.push(`${way} ${r.rate.toFixed(0)} calls/s (${r.calls} in ${r.seconds.toFixed(1)} s)`);
      if (way !== 'plain' && (r.routed !== r.calls || r.fromTrunk !== r.calls)) problems.push(`${way}, round ${round}: ${r.routed} of ${r.calls} calls had the trunk's route, ${r.fromTrunk} its caller ID`);
      if (way === 'plain' && r.routed !== 0) problems.push(`plain, round ${round}: ${r.routed} calls had a trunk route`);
      if (way === 'trunk + vendor number' && r.vendorRequests !== 1) problems.push(`round ${round}: ${r.vendorRequests} vendor requests for one trunk number (expected 1)`);
    }
    console.log(`  round ${round}: ${line.join('; ')}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const plain = median(rates.get('plain')!);
  console.log(`\nsummary (median of ${ROUNDS} rounds; goal: each trunk way >= 0.9 of plain):`);
  for (const way of WAYS) console.log(`  ${way.padEnd(22)} ${median(rates.get(way)!).toFixed(0).padStart(6)} calls/s, ratio to plain ${(median(rates.get(way)!) / plain).toFixed(2)}`);
  console.log(problems.length === 0 ? '  checks: every trunk call had its route and the trunk\'s caller ID; one vendor request for the trunk number' : `  PROBLEMS:\n    ${problems.join('\n    ')}`);
} finally {
  await handle.close();
  await database.drop();
}
