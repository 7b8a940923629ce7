/**
 * Retention and erasure at ten times the data (issue "Privacy by default"). For each size (default
 * 20k and 200k calls, one per contact, over 10 campaigns of one account, each call with a
 * transcript and a webhook delivery; a year and a month of end times; BENCH_CALLS for the first):
 *
 * - erasure: one person (three contacts in three campaigns, one found by e-mail only) exported and
 *   erased, median of RUNS fresh people, against a primary-key read in the same run (the floor);
 *   the growth from the small to the large account is what matters: finding one person must not
 *   read the account;
 * - retention: the purge of every call past 30 days (about 11/12 of them), in the job's batches,
 *   against bare UPDATEs of the same number of rows of a copy of the calls, in batches of the same
 *   size (the least any purge writes): rows per second and the ratio.
 *
 *   npm run bench:privacy            BENCH_CALLS=20000 BENCH_RUNS=5 (PostgreSQL at BENCH_DATABASE_URL)
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/connection.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { erasePerson } from '../src/modules/privacy/erasure/person-erasure.ts';
import { exportPerson } from '../src/modules/privacy/erasure/person-export.ts';
import { purgeCalls, retentionRules } from '../src/modules/privacy/retention/retention-purge.ts';
import { PURGE_BATCH } from '../src/modules/privacy/retention/retention.worker.ts';
import { createBenchDatabase } from './support/bench-db.ts';
import { seedCampaignsAndContacts } from './support/campaign-contacts-seed.ts';

const SMALL = Number(process.env.BENCH_CALLS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CAMPAIGNS = 10;
const NOW = new Date('2026-11-29T12:00:00Z');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await f();
  return [performance.now() - start, value];
}

async function seed(db: Db, calls: number) {
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  const other = await createUser(db, { email: `other-${Date.now()}@example.com`, password: 'benchmark pass' });
  const { firstCampaign } = await seedCampaignsAndContacts(db, { ownerId: user.id, otherId: other.id, campaigns: CAMPAIGNS, contactsPerCampaign: calls / CAMPAIGNS });
  // One contact in 20 has an e-mail, as imported CRM data often has.
  await sql`UPDATE contacts SET contact_data = jsonb_build_object('name', 'Person ' || id, 'email', 'person' || id || '@example.com') WHERE owner_id = ${user.id} AND id % 20 = 0`.execute(db);
  await sql`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, call_type, to_number, start_time, end_time, call_duration, call_data, contact_data)
    SELECT c.owner_id, c.campaign_id, c.id, 'finished', 'outbound', c.phone_number, e - interval '2 minutes', e, 120,
           jsonb_build_object('provider', 'sim', 'transcript', jsonb_build_array(
             jsonb_build_object('role', 'assistant', 'text', 'Hello, this is the clinic calling to confirm your appointment next week.'),
             jsonb_build_object('role', 'user', 'text', 'Yes, Thursday at four works, my daughter will drive me there.'))),
           c.contact_data
    FROM (SELECT *, ${NOW}::timestamptz - (id % 395) * interval '1 day' AS e FROM contacts WHERE owner_id = ${user.id}) c`.execute(db);
  const [integration] = (await sql<{ id: number }>`
    INSERT INTO webhook_integrations (owner_id, name, url, allowed_hosts, request_schema, signing_secret)
    VALUES (${user.id}, 'bench', 'https://hooks.example/x', ARRAY['hooks.example'], '{}', 'bench-signing-secret') RETURNING id`.execute(db)).rows;
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, status, request_method, request_url, payload, http_status, created_at)
    SELECT ${integration!.id}, owner_id, id, 'sent', 'POST', 'https://hooks.example/x', jsonb_build_object('summary', 'confirmed Thursday'), 200, end_time
    FROM calls WHERE owner_id = ${user.id}`.execute(db);
  await sql`ANALYZE`.execute(db);
  return { ownerId: user.id, firstCampaign };
}

/** RUNS people, each in three campaigns (the third found by e-mail only): export and erase times. */
async function erasures(db: Db, ownerId: number, firstCampaign: number) {
  const exportMs: number[] = [];
  const eraseMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const phone = `+1415555${String(1000 + run).padStart(4, '0')}`;
    const email = `erase.me.${run}@example.org`;
    const picked = (await sql<{ id: number }>`
      SELECT DISTINCT ON (campaign_id) id FROM contacts WHERE owner_id = ${ownerId} AND campaign_id < ${firstCampaign + 3} AND id % 20 = ${run + 1}
      ORDER BY campaign_id, id`.execute(db)).rows.map((r) => r.id);
    await sql`UPDATE contacts SET phone_number = ${phone} WHERE id = ANY(${picked.slice(0, 2)}::bigint[])`.execute(db);
    await sql`UPDATE contacts SET contact_data = jsonb_build_object('email', ${email.toUpperCase()}::text) WHERE id = ${picked[2]!}`.execute(db);
    await sql`UPDATE calls SET to_number = ${phone} WHERE contact_id = ANY(${picked.slice(0, 2)}::bigint[])`.execute(db);
    const person = { ownerId, phone, email };
    const [exported, doc] = await timed(() => exportPerson(db, person, NOW));
    const [erased] = await timed(() => db.transaction().execute((trx) => erasePerson(trx, person, { userId: ownerId }, NOW)));
    if ((doc as { counts: { contacts: number } }).counts.contacts !== 3) throw new Error(`the person was not found whole: ${JSON.stringify((doc as { counts: unknown }).counts)}`);
    exportMs.push(exported);
    eraseMs.push(erased);
  }
  const floor: number[] = [];
  for (let i = 0; i < 50; i++) floor.push((await timed(() => sql`SELECT id, status FROM contacts WHERE id = ${firstCampaign}`.execute(db)))[0]);
  return { exportMs: median(exportMs), eraseMs: median(eraseMs), floorMs: median(floor) };
}

/** The retention job's purge of every call past 30 days, against bare UPDATEs of as many rows of a copy. */
async function retention(db: Db, ownerId: number) {
  await sql`CREATE TABLE bench_calls_copy AS SELECT id, call_data, contact_data, record_url FROM calls`.execute(db);
  await sql`CREATE UNIQUE INDEX ON bench_calls_copy (id)`.execute(db);
  await sql`INSERT INTO privacy_settings (owner_id, retention_days) VALUES (${ownerId}, 30) ON CONFLICT (owner_id) DO UPDATE SET retention_days = 30`.execute(db);
  const [purgeMs, purged] = await timed(async () => {
    let total = 0;
    for (const rule of await retentionRules(db)) {
      for (;;) {
        const n = (await purgeCalls(db, rule, NOW, PURGE_BATCH)).calls;
        total += n;
        if (n < PURGE_BATCH) break;
      }
    }
    return total;
  });
  const ids = (await sql<{ id: number }>`SELECT id FROM bench_calls_copy ORDER BY id LIMIT ${purged}`.execute(db)).rows.map((r) => r.id);
  const [bareMs] = await timed(async () => {
    for (let i = 0; i < ids.length; i += PURGE_BATCH) {
      await sql`UPDATE bench_calls_copy SET call_data = '{}'::jsonb, contact_data = '{}'::jsonb, record_url = NULL WHERE id = ANY(${ids.slice(i, i + PURGE_BATCH)}::bigint[])`.execute(db);
    }
  });
  return { purged, purgeMs, bareMs };
}

console.log(`privacy at ${SMALL.toLocaleString()} and ${(SMALL * 10).toLocaleString()} calls (one account, ${CAMPAIGNS} campaigns, ${RUNS} people erased each)`);
const results: { calls: number; exportMs: number; eraseMs: number; floorMs: number; purged: number; purgeMs: number; bareMs: number }[] = [];
for (const calls of [SMALL, SMALL * 10]) {
  const database = await createBenchDatabase('vc_bench_privacy');
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const [seedMs, { ownerId, firstCampaign }] = await timed(() => seed(handle.db, calls));
    const erasure = await erasures(handle.db, ownerId, firstCampaign);
    const purge = await retention(handle.db, ownerId);
    results.push({ calls, ...erasure, ...purge });
    console.log(`${calls.toLocaleString().padStart(9)} calls (seeded in ${(seedMs / 1000).toFixed(0)} s): export ${erasure.exportMs.toFixed(1)} ms, erase ${erasure.eraseMs.toFixed(1)} ms `
      + `(primary-key read ${erasure.floorMs.toFixed(2)} ms); purge ${purge.purged.toLocaleString()} calls in ${(purge.purgeMs / 1000).toFixed(1)} s `
      + `= ${Math.round(purge.purged / (purge.purgeMs / 1000)).toLocaleString()} calls/s, ${(purge.purgeMs / purge.bareMs).toFixed(2)}x bare UPDATEs of as many rows`);
  } finally {
    await handle.close();
    await database.drop();
  }
}
const [small, large] = results as [typeof results[0], typeof results[0]];
console.log(`growth at 10x the data: export ${(large.exportMs / small.exportMs).toFixed(2)}x, erase ${(large.eraseMs / small.eraseMs).toFixed(2)}x `
  + `(goal: about 1x, finding one person reads no more of a larger account); purge per call ${((large.purgeMs / large.purged) / (small.purgeMs / small.purged)).toFixed(2)}x (goal: about 1x)`);
