/**
 * The lists without counters at issue 31's 2M-call shape, without the calls (their seeding is
 * most of bench:calls-scale's 15 minutes and these lists do not read them): one account with
 * 100 campaigns of CONTACTS/100 contacts, CONTACTS/2 webhook deliveries and CONTACTS/5 audit
 * events, as bench/support/calls-scale-seed.ts writes them, and CONTACTS text messages (a
 * follow-up to each contact, a reply from one in five; 'refund' in 0.2% of the texts). Prints p50/p99 of 30 requests per
 * list through the HTTP stack (app.inject, real API key), the rows of bench:calls-scale, and
 * next to each the exact count(*) the list ran before its count was bounded (same data, same run).
 *
 *   node --import tsx bench/list-counts.ts          BENCH_CONTACTS=1000000 (the 2M-call shape), BENCH_RUNS=30
 */
import { sql, type RawBuilder } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { depsFromDatabase } from '../src/deps.ts';
import { createApiKey } from '../src/modules/api-keys/api-keys.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { createBenchDatabase } from './support/bench-db.ts';
import { seedCampaignsAndContacts } from './support/campaign-contacts-seed.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const YEAR_START = '2025-01-01T00:00:00Z';

const percentiles = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]! };
};

const database = await createBenchDatabase('vc_bench_list_counts');
const handle = await openDatabase({ databaseUrl: database.url, dataDir: '/tmp', poolSize: 10 });
try {
  await migrateToLatest(handle.db);
  const db = handle.db;
  const user = await createUser(db, { email: `bench-${Date.now()}@example.com`, password: 'benchmark pass' });
  const other = await createUser(db, { email: `other-${Date.now()}@example.com`, password: 'benchmark pass' });
  const { key } = await createApiKey(db, user.id, 'bench');
  const started = performance.now();
  const { firstCampaign, firstContact } = await seedCampaignsAndContacts(db, { ownerId: user.id, otherId: other.id, campaigns: 100, contactsPerCampaign: CONTACTS / 100 });
  const { rows: [integration] } = await handle.pool.query<{ id: number }>(
    "INSERT INTO webhook_integrations (owner_id, name, url, allowed_hosts, request_schema, signing_secret) VALUES ($1, 'bench', 'https://hooks.example/x', ARRAY['hooks.example'], '{}', 'bench-signing-secret') RETURNING id",
    [user.id],
  );
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, status, skipped_by, request_method, request_url, payload, http_status, duration_ms, created_at)
    SELECT ${integration!.id}, ${user.id}, NULL, (ARRAY['sent', 'sent', 'sent', 'failed', 'skipped'])[1 + g % 5], CASE WHEN g % 5 = 4 THEN 'call_statuses' END, 'POST', 'https://hooks.example/x',
           json_build_object('call_id', g, 'status', 'finished', 'summary', 'Customer discussed the quote'), 200, 120, ${YEAR_START}::timestamptz + g * interval '1 minute'
    FROM generate_series(1, ${CONTACTS / 2}::int) g`.execute(db);
  await sql`
    INSERT INTO audit_events (owner_id, actor_user_id, actor_label, kind, subject_type, subject_id, details, created_at)
    SELECT ${user.id}, ${user.id}, 'bench@example.com', (ARRAY['campaign.updated', 'contact.deleted', 'api_key.created', 'campaign.started'])[1 + g % 4], 'campaign', g % 100,
           '{}'::jsonb, ${YEAR_START}::timestamptz + g * interval '5 minutes'
    FROM generate_series(1, ${CONTACTS / 5}::int) g`.execute(db);
  // Contacts were written campaign by campaign, so contact firstContact + g is in campaign firstCampaign + g / (CONTACTS / 100).
  await sql`
    INSERT INTO messages (owner_id, campaign_id, contact_id, direction, role_id, source, purpose, body, status, to_number, from_number, provider, created_at, updated_at)
    SELECT ${user.id}, ${firstCampaign} + g / ${CONTACTS / 100}, ${firstContact} + g, d.direction, CASE WHEN d.direction = 'outbound' THEN 'assistant' ELSE 'contact' END,
           'sms', CASE WHEN d.direction = 'outbound' THEN 'follow_up' END,
           CASE WHEN d.direction = 'inbound' AND g % 100 = 7 THEN 'I want a refund for the deposit, please call me back tomorrow.'
                WHEN d.direction = 'inbound' THEN 'Thanks, call me tomorrow after 5 please.'
                ELSE 'Hi, this is Brightline Windows: sorry we missed you today. Reply here or call us back whenever it suits you.' END,
           CASE WHEN d.direction = 'inbound' THEN 'received' ELSE (ARRAY['delivered', 'delivered', 'delivered', 'sent', 'failed'])[1 + g % 5] END,
           '+1202' || lpad(g::text, 7, '0'), '+12125550100', 'twilio', t.at, t.at
      FROM generate_series(0, ${CONTACTS - 1}::int) g
      CROSS JOIN LATERAL (SELECT CASE WHEN g % 5 = 2 THEN 'inbound' ELSE 'outbound' END AS direction) d
      CROSS JOIN LATERAL (SELECT ${YEAR_START}::timestamptz + g * interval '30 seconds' AS at) t`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  console.log(`${CONTACTS.toLocaleString('en')} contacts, ${(CONTACTS / 2).toLocaleString('en')} deliveries, ${(CONTACTS / 5).toLocaleString('en')} audit events, ${CONTACTS.toLocaleString('en')} texts seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: 'bench-secret-key-that-is-long-enough-0123456789', LOG_LEVEL: 'silent' });
  const app = await buildApp(depsFromDatabase(config, handle), { logger: false });
  await app.ready();
  const campaign = firstCampaign + 42;
  const cases: [string, string, RawBuilder<unknown>][] = [
    ['GET /users/me (HTTP + auth floor)', '/api/v1/users/me', sql`SELECT 1`],
    ['contacts by campaign', `/api/v1/contacts/campaign/${campaign}`, sql`SELECT count(*) FROM contacts WHERE owner_id = ${user.id} AND campaign_id = ${campaign}`],
    ['contacts (all)', '/api/v1/contacts/', sql`SELECT count(*) FROM contacts WHERE owner_id = ${user.id}`],
    ['webhook deliveries', `/api/v1/integrations/webhooks/${integration!.id}/deliveries`, sql`SELECT count(*) FROM webhook_deliveries WHERE integration_id = ${integration!.id}`],
    ['audit events', '/api/v1/audit-events/', sql`SELECT count(*) FROM audit_events WHERE owner_id = ${user.id}`],
    ['messages (all)', '/api/v1/messages/', sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id}`],
    ['messages by campaign', `/api/v1/messages/?campaign_id=${campaign}`, sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND campaign_id = ${campaign}`],
    ['messages direction=inbound', '/api/v1/messages/?direction=inbound', sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND direction = 'inbound'`],
    ['messages message=refund (0.2%)', '/api/v1/messages/?message=refund', sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND body ILIKE '%refund%'`],
    ['messages message=tomorrow (20%)', '/api/v1/messages/?message=tomorrow', sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND body ILIKE '%tomorrow%'`],
    ['messages message=nomatchword', '/api/v1/messages/?message=nomatchword', sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND body ILIKE '%nomatchword%'`],
    ['messages of one contact', `/api/v1/messages/?contact_id=${firstContact + 4242}`, sql`SELECT count(*) FROM messages WHERE owner_id = ${user.id} AND contact_id = ${firstContact + 4242}`],
  ];
  for (const [name, url, exactCount] of cases) {
    const get = () => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    const first = await get();
    for (let i = 0; i < 2; i++) await get();
    const times: number[] = [];
    const counts: number[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      const res = await get();
      times.push(performance.now() - t0);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      t0 = performance.now();
      await exactCount.execute(db);
      counts.push(performance.now() - t0);
    }
    const body = first.json() as { count?: number; count_exact?: boolean };
    const note = body.count !== undefined ? `count ${body.count}${body.count_exact === false ? ' (estimate)' : ''}` : '';
    const list = percentiles(times);
    const exact = percentiles(counts);
    console.log(`  ${name.padEnd(34)} p50 ${list.p50.toFixed(1).padStart(7)} ms  p99 ${list.p99.toFixed(1).padStart(7)} ms  ${[...statuses].map(([s, n]) => `${s}x${n}`).join(' ')}  ${note.padEnd(26)}` +
      `  old exact count(*) alone: p50 ${exact.p50.toFixed(1)} ms p99 ${exact.p99.toFixed(1)} ms`);
  }
  await app.close();
} finally {
  await handle.close();
  await database.drop();
}
