/**
 * Text sender throughput (issue 25): due follow-up texts claimed, checked against the law
 * (do-not-call, window and quiet hours, text caps, max_per_contact, landlines), written as
 * Message rows and sent (a vendor that accepts at once), against a bare claim-and-insert loop
 * over the same rows in the same run (same claim, one INSERT per text, no law): goal >= 0.5.
 * Then the same with ten times more texts queued (20k then 200k by default, the rate measured
 * over the first BENCH_TEXTS of each): goal rate at the larger >= 0.9 x the smaller.
 * Printed beside them, the writes floor (floorRound): the sender's own writes without its reads
 * or law, so "law / floor" is what the checks cost and "floor / bare" what the writes do.
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
import { claimDueTextJobs, lockClaimedJobs, settleJobs } from '../src/modules/messaging/text-jobs.repository.ts';
import { recordSendResults } from '../src/modules/messaging/send-result.ts';
import { countTextAttempts } from '../src/modules/contact-lifecycle/contact-lifecycle.repository.ts';
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
  // Every loop starts on fresh tables: rows deleted by a DELETE stay in the heap and indexes
  // (half-empty pages after VACUUM) for the later loops only.
  await sql`TRUNCATE message_jobs, messages, contacts, campaigns CASCADE`.execute(db);
  const { rows: [campaign] } = await sql<{ id: number }>`
    INSERT INTO campaigns (owner_id, title, campaign_type, campaign_phone, is_auto_ai_message) VALUES (${ownerId}, 'Bench texts', 'Outbound', '+12125550100', true) RETURNING id`.execute(db);
  await sql`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status, contact_data, timezone, created_at, updated_at)
    SELECT ${ownerId}, ${campaign!.id}, '+1212' || lpad(g::text, 7, '0'), 'no_answer', json_build_object('name', 'Person ' || g), 'America/New_York', now(), now()
    FROM generate_series(1, ${queued}::int) g`.execute(db);
  await sql`
    INSERT INTO message_jobs (owner_id, campaign_id, contact_id, purpose, due_at)
    SELECT owner_id, campaign_id, id, 'follow_up', now() - interval '1 minute' FROM contacts WHERE campaign_id = ${campaign!.id}`.execute(db);
  // With autovacuum off (as on the bench server) or behind, the rows the last seed deleted were
  // walked by the later loops' claims only: at 200k queued, law 933 texts/s = 0.53 x its 20k rate.
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

/**
 * The floor: the writes the text sender cannot skip for a batch, by its own statements, without
 * its reads, words or law: the claim; one transaction locking the jobs and the contacts, writing
 * the Message rows, counting the attempts and ending the jobs; the sends; the answers recorded
 * (their own commit). The lawful loop over this one is what the reads and the law cost.
 */
async function floorRound(deps: Deps, worker: string): Promise<number> {
  const jobs = await claimDueTextJobs(deps.db, worker, BATCH, new Date());
  if (jobs.length === 0) return 0;
  const now = new Date();
  const written = await deps.db.transaction().execute(async (trx) => {
    const ours = await lockClaimedJobs(trx, jobs.map((j) => j.id), worker);
    const mine = jobs.filter((j) => ours.has(j.id));
    if (mine.length === 0) return [];
    await trx.selectFrom('contacts').select('id').where('id', 'in', mine.map((j) => j.contact_id)).orderBy('id').forUpdate().execute();
    const rows = await trx.insertInto('messages').values(mine.map((job) => ({
      owner_id: job.owner_id, campaign_id: job.campaign_id, contact_id: job.contact_id, direction: 'outbound' as const, role_id: 'assistant' as const,
      source: 'sms' as const, purpose: job.purpose, body: 'Hi, we tried to call you. Reply STOP to opt out.', status: 'sending' as const, to_number: '+10000000000', provider: 'sim',
      created_at: now, updated_at: now,
    }))).returning('id').execute();
    await countTextAttempts(trx, new Map(mine.map((j) => [j.contact_id, 1])), now);
    await settleJobs(trx, mine.map((j, i) => ({ id: j.id, status: 'sent' as const, reason: null, messageId: Number(rows[i]!.id) })));
    return mine.map((job, i) => ({ job, messageId: Number(rows[i]!.id), to: '+10000000000' }));
  });
  const results = await Promise.all(written.map(async (w) => ({
    ...w, result: await instant.send({ messageId: w.messageId, channel: 'sms', to: w.to, from: null, body: 'Hi', messagingServiceSid: null, contentSid: null, simReply: null }),
  })));
  await recordSendResults(deps, results);
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
    const floor = await rate(TEXTS, (w) => floorRound(deps, w));
    await seed(handle, user.id, queued);
    const lawful = await rate(TEXTS, (w) => runTextRound(law, { workerId: w, limit: BATCH, batch: BATCH, parallel: 1 }));
    const sent = await handle.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { bare, floor, lawful, sent: Number(sent.n) };
  } finally {
    await handle.close();
    await database.drop();
  }
}

const small = await measure(QUEUED);
console.log(`${QUEUED.toLocaleString('en')} queued: bare claim-and-insert ${small.bare.toFixed(0)} texts/s, with the law ${small.lawful.toFixed(0)} texts/s (${small.sent} messages): ratio ${(small.lawful / small.bare).toFixed(2)} (goal >= 0.5)`);
console.log(`  the writes floor ${small.floor.toFixed(0)} texts/s: floor / bare ${(small.floor / small.bare).toFixed(2)}, law / floor ${(small.lawful / small.floor).toFixed(2)}`);
const large = await measure(QUEUED * 10);
console.log(`${(QUEUED * 10).toLocaleString('en')} queued: bare ${large.bare.toFixed(0)} texts/s, with the law ${large.lawful.toFixed(0)} texts/s: ratio ${(large.lawful / large.bare).toFixed(2)}`);
console.log(`  the writes floor ${large.floor.toFixed(0)} texts/s: floor / bare ${(large.floor / large.bare).toFixed(2)}, law / floor ${(large.lawful / large.floor).toFixed(2)}`);
console.log(`queue-size growth: law rate at ${(QUEUED * 10).toLocaleString('en')} / at ${QUEUED.toLocaleString('en')} = ${(large.lawful / small.lawful).toFixed(2)} (goal >= 0.9); floor ${(large.floor / small.floor).toFixed(2)}, bare ${(large.bare / small.bare).toFixed(2)}`);
process.exit(0);
