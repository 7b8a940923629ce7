/**
 * Text sender throughput (issue 25): due follow-up texts claimed, checked against the law
 * (do-not-call, window and quiet hours, text caps, max_per_contact, landlines), written as
 * Message rows and sent (a vendor that accepts at once), against a bare claim-and-insert loop
 * over the same rows in the same run (same claim, one INSERT per text, no law): goal >= 0.5.
 * Then the same with ten times more texts queued (20k then 200k by default, the rate measured
 * over the first BENCH_TEXTS of each): goal rate at the larger >= 0.9 x the smaller.
 *   npm run bench:messages
 *   BENCH_QUEUED=20000 BENCH_TEXTS=3000 BENCH_PARALLEL=8 BENCH_DATABASE_URL=postgres://... npm run bench:messages
 */
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase, type Deps } from '../src/deps.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { runTextRound } from '../src/modules/messaging/text-sender.worker.ts';
import { claimDueTextJobs } from '../src/modules/messaging/text-jobs.repository.ts';
import type { TextProvider } from '../src/messaging/text-channel.ts';
import { createBenchDatabase } from './support/bench-db.ts';

const QUEUED = Number(process.env.BENCH_QUEUED ?? 20_000);
const TEXTS = Number(process.env.BENCH_TEXTS ?? 3_000);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 2);
/** Texts per claim, as the text sender's worker claims them. */
const BATCH = 50;

/** A vendor that takes every text at once: the bench measures the service, not a network. */
const instant: TextProvider = { name: 'sim', send: async (input) => ({ kind: 'accepted', providerMessageId: `SMbench${input.messageId}`, status: 'queued', cost: 0.0079 }) };

async function seed(handle: DatabaseHandle, ownerId: number, queued: number) {
  const db = handle.db;
  await db.deleteFrom('message_jobs').execute();
  await db.deleteFrom('messages').execute();
  await db.deleteFrom('contacts').execute();
  await db.deleteFrom('campaigns').execute();
  const { rows: [campaign] } = await sql<{ id: number }>`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, is_auto_ai_message) VALUES (${ownerId}, 'Bench texts', 'Outbound', '+12125550100', true) RETURNING id`.execute(db);
  await sql`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data, timezone, created_at, updated_at)
    SELECT ${ownerId}, ${campaign!.id}, '+1212' || lpad(g::text, 7, '0'), 'no_answer', json_build_object('name', 'Person ' || g), 'America/New_York', now(), now()
    FROM generate_series(1, ${queued}::int) g`.execute(db);
  await sql`
    INSERT INTO message_jobs (owner_id, campaign_id, contact_id, purpose, due_at)
    SELECT owner_id, campaign_id, id, 'follow_up', now() - interval '1 minute' FROM contacts WHERE campaign_id = ${campaign!.id}`.execute(db);
  // The second seed of a run deletes the first's rows; with autovacuum off (as on the bench
  // server) or behind, every claim of the second loop (the lawful one) walked their dead tuples
  // while the bare loop had a fresh table: at 200k queued, law 933 texts/s = 0.53 x its 20k rate.
  await sql`VACUUM ANALYZE`.execute(db);
}

/** Texts per second until `texts` are done, `PARALLEL` rounds at once. */
async function rate(texts: number, round: (worker: string) => Promise<number>): Promise<number> {
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: PARALLEL }, async (_, i) => {
    while (done < texts) {
      const n = await round(`bench-${i}`);
      if (n === 0) break;
      done += n;
    }
  }));
  return (done * 1000) / (performance.now() - started);
}

/**
 * The baseline: the same claim of a batch, then in one transaction one INSERT of the batch's
 * Message rows and one UPDATE ending its jobs: the least any sender that writes before it sends does.
 */
async function bareRound(deps: Deps, worker: string): Promise<number> {
  const jobs = await claimDueTextJobs(deps.db, worker, BATCH, new Date());
  if (jobs.length === 0) return 0;
  await deps.db.transaction().execute(async (trx) => {
    const rows = await trx.insertInto('messages').values(jobs.map((job) => ({
      owner_id: job.owner_id, campaign_id: job.campaign_id, contact_id: job.contact_id, direction: 'outbound' as const, role_id: 'assistant' as const,
      source: 'sms' as const, purpose: job.purpose, body: 'Hi, we tried to call you. Reply STOP to opt out.', status: 'sending' as const, to_number: '+10000000000', provider: 'sim',
    }))).returning('id').execute();
    await sql`UPDATE message_jobs j SET status = 'sent', message_id = u.m FROM unnest(${jobs.map((j) => j.id)}::bigint[], ${rows.map((r) => r.id)}::bigint[]) AS u(id, m) WHERE j.id = u.id`.execute(trx);
  });
  return jobs.length;
}

async function measure(queued: number) {
  const database = await createBenchDatabase('vc_bench_messages');
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: PARALLEL + 2 });
  try {
    await migrateToLatest(handle.db);
    const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', LOG_LEVEL: 'silent' });
    const deps = depsFromDatabase(config, handle);
    // 15:00 UTC is inside New York's hours; the bench runs whatever the time of day.
    const noon = new Date(); noon.setUTCHours(15, 0, 0, 0);
    const law: Deps = { ...deps, clock: { now: () => noon }, texts: { sim: instant } };
    const user = await createUser(handle.db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
    await sql`INSERT INTO account_compliance (owner_id, max_texts_per_day, max_texts_per_week, updated_at) VALUES (${user.id}, 5, 10, now())`.execute(handle.db);

    await seed(handle, user.id, queued);
    const bare = await rate(TEXTS, (w) => bareRound(deps, w));
    await seed(handle, user.id, queued);
    const lawful = await rate(TEXTS, (w) => runTextRound(law, { workerId: w, limit: BATCH, batch: BATCH, parallel: 1 }));
    const sent = await handle.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { bare, lawful, sent: Number(sent.n) };
  } finally {
    await handle.close();
    await database.drop();
  }
}

const small = await measure(QUEUED);
console.log(`${QUEUED.toLocaleString('en')} queued: bare claim-and-insert ${small.bare.toFixed(0)} texts/s, with the law ${small.lawful.toFixed(0)} texts/s (${small.sent} messages): ratio ${(small.lawful / small.bare).toFixed(2)} (goal >= 0.5)`);
const large = await measure(QUEUED * 10);
console.log(`${(QUEUED * 10).toLocaleString('en')} queued: bare ${large.bare.toFixed(0)} texts/s, with the law ${large.lawful.toFixed(0)} texts/s: ratio ${(large.lawful / large.bare).toFixed(2)}`);
console.log(`queue-size growth: law rate at ${(QUEUED * 10).toLocaleString('en')} / at ${QUEUED.toLocaleString('en')} = ${(large.lawful / small.lawful).toFixed(2)} (goal >= 0.9)`);
process.exit(0);
