import { sql } from 'kysely';
import { seedCampaignsAndContacts } from './campaign-contacts-seed.ts';
import type { DatabaseHandle } from '../../src/db/connection.ts';

/**
 * The data of issue 31, written by generate_series (no row leaves the database): one account
 * with CAMPAIGNS campaigns, calls/2 contacts, the calls over one year in time order (as the
 * dialer writes them) with 12 statuses (in progress: the newest 20) and call_data of about 1.1 KB (an 8-turn transcript and
 * an analysis) where 'financing' is in a third of the calls and 'refund' in 0.2%; webhook
 * deliveries (calls/4) and audit events (calls/10) of the same account; a second account with
 * a few calls. Every value follows fixed hashes of the row number, so runs see the same data.
 */
export const CAMPAIGNS = 100;
export const STATUSES = ['finished', 'finished', 'finished', 'failed', 'busy_or_rejected', 'voicemail', 'unavailable', 'rejected', 'silence', 'terminated', 'invalid number', 'new', 'insufficient funds'];
const YEAR_START = '2025-01-01T00:00:00Z';
const BATCH = 100_000;

const AGENT_OPENINGS = [
  'Hello, this is Emma calling from Brightline Windows about the quote you asked for on our website last month.',
  'Good afternoon, this is Liam from Northstar Solar following up on the home energy assessment you booked with us.',
  'Hi there, my name is Olivia and I am calling from Harbor Kitchens regarding the renovation estimate you requested.',
  'Hello, this is Noah with Summit Roofing, I am reaching out about the inspection appointment from your online form.',
];
const USER_REPLIES = [
  'Oh yes, I remember filling that in, we have been thinking about replacing the old ones before the winter comes.',
  'Right, I did ask about that, but honestly I am still comparing a couple of different companies at the moment.',
  'Sure, I have a few minutes now, my partner and I were just talking about whether it is worth doing this year.',
  'Yes, that was me, although I was a little surprised by how long it took for someone to get back to me.',
];
const OFFERS = [
  'We also offer financing over twelve months with no interest for customers who qualify, which many people find helpful.',
  'We can usually schedule the installation within two weeks and the price includes removal of the old materials.',
  'Our installers are certified and every job comes with a ten year warranty on both the parts and the labour.',
];
const CLOSINGS = [
  'Thank you for your time today, I will send the details by email and you can call us back whenever it suits you.',
  'Great, I have booked the visit for Thursday morning and our specialist will call you thirty minutes before arriving.',
  'No problem at all, I will make a note that you are not interested right now and we will not call you again soon.',
];

const pick = (list: string[], h: string) => sql`(${sql.val(list)}::text[])[1 + (${sql.raw(h)}) % ${list.length}]`;

export async function seedCallsScale(handle: DatabaseHandle, args: { ownerId: number; otherId: number; calls: number }) {
  const { db } = handle;
  const calls = args.calls;
  const contactsPerCampaign = Math.max(1, Math.floor(calls / 2 / CAMPAIGNS));
  const { firstCampaign, firstContact } = await seedCampaignsAndContacts(db, { ownerId: args.ownerId, otherId: args.otherId, campaigns: CAMPAIGNS, contactsPerCampaign: contactsPerCampaign });

  // Bulk load without the calls indexes, then build them: the same schema at query time, minutes less seeding.
  const { rows: indexes } = await handle.pool.query<{ indexname: string; indexdef: string }>(
    "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'calls' AND indexname <> 'calls_pkey'",
  );
  for (const index of indexes) await handle.pool.query(`DROP INDEX ${index.indexname}`);
  // Three batches at a time (ids given, so the id order is the time order): the stored search column costs a to_tsvector per call, the bulk of the seeding.
  const batches: number[] = [];
  for (let from = 0; from < calls; from += BATCH) batches.push(from);
  const insertBatch = async (from: number) => {
    const to = Math.min(calls, from + BATCH) - 1;
    await sql`
      INSERT INTO calls (id, owner_id, campaign_id, contact_id, status, action_status, call_type, start_time, end_time, cost, call_duration,
                         from_number, to_number, campaign_title, external_session_id, call_data)
      SELECT 1 + g, ${args.ownerId}, ${firstCampaign} + g % ${CAMPAIGNS}, ${firstContact} + (g % ${CAMPAIGNS}) * ${contactsPerCampaign} + (g / ${CAMPAIGNS}) % ${contactsPerCampaign},
             s.status,
             CASE WHEN s.status = 'finished' THEN (ARRAY['interested', 'scheduled', 'transferred', NULL, NULL, NULL, NULL, NULL, NULL, NULL])[1 + (h / 7) % 10] END,
             CASE WHEN h % 10 = 1 AND s.status <> 'in progress' THEN 'inbound' ELSE 'outbound' END,
             t.start_time, t.start_time + d.duration * interval '1 second',
             round((d.duration * 0.0021)::numeric, 4)::float8, d.duration,
             '+1555000' || lpad((h % 20)::text, 4, '0'),
             '+1202' || lpad(((g % ${CAMPAIGNS}) * ${contactsPerCampaign} + (g / ${CAMPAIGNS}) % ${contactsPerCampaign})::text, 7, '0'),
             'Campaign', 'sess-' || g,
             jsonb_build_object(
               'transcript', jsonb_build_array(
                 jsonb_build_object('role', 'agent', 'content', ${pick(AGENT_OPENINGS, 'h')}),
                 jsonb_build_object('role', 'user', 'content', ${pick(USER_REPLIES, 'h / 5')}),
                 jsonb_build_object('role', 'agent', 'content', 'I understand. Could you tell me a little about the property, for example how many rooms and when it was built?'),
                 jsonb_build_object('role', 'user', 'content', 'It is a detached house from about ' || (1950 + h % 70) || ', four bedrooms, and the order number on my letter is ' || (100000 + g) || '.'),
                 jsonb_build_object('role', 'agent', 'content', CASE WHEN g % 3 = 0 THEN ${OFFERS[0]!} ELSE ${pick(OFFERS.slice(1), 'h / 11')} END),
                 jsonb_build_object('role', 'user', 'content', CASE WHEN h % 500 = 7 THEN 'Before anything else I want a refund for the deposit I paid last time, it was never returned.' ELSE 'That sounds reasonable, could you also tell me whether someone would need to be at home the whole day?' END),
                 jsonb_build_object('role', 'agent', 'content', 'Yes, someone should be there to let the team in, but the work itself normally finishes by mid afternoon.'),
                 jsonb_build_object('role', 'user', 'content', ${pick(CLOSINGS, 'h / 13')})),
               'analysis', jsonb_build_object('summary', 'Customer discussed the quote; outcome ' || s.status || '.', 'sentiment', (ARRAY['positive', 'neutral', 'negative'])[1 + h % 3], 'successful', h % 4 = 0),
               'provider_call_id', 'pc-' || md5(g::text))
      FROM generate_series(${from}::int, ${to}::int) g
      CROSS JOIN LATERAL (SELECT (g::bigint * 2654435761) % 1000003 AS h) hh
      -- The twelfth status: the newest 20 calls are in progress (one live call per number and contact).
      CROSS JOIN LATERAL (SELECT CASE WHEN g >= ${calls - 20} THEN 'in progress' ELSE (${sql.val(STATUSES)}::text[])[1 + h % ${STATUSES.length}] END AS status) s
      CROSS JOIN LATERAL (SELECT ${YEAR_START}::timestamptz + (g * (365 * 86400.0 / ${calls})) * interval '1 second' AS start_time) t
      CROSS JOIN LATERAL (SELECT CASE WHEN s.status = 'finished' THEN 20 + h % 400 WHEN s.status = 'voicemail' THEN 15 ELSE 0 END AS duration) d`.execute(db);
  };
  await Promise.all(Array.from({ length: 3 }, async () => {
    for (let from = batches.shift(); from !== undefined; from = batches.shift()) await insertBatch(from);
  }));
  // Ids in time order whatever batch finished first, as the dialer writes them; the identity goes on after them.
  await sql`SELECT setval(pg_get_serial_sequence('calls', 'id'), ${calls})`.execute(db);
  await sql`INSERT INTO calls (owner_id, campaign_id, contact_id, status, start_time, cost, call_duration, call_data)
    SELECT ${args.otherId}, c.id, ${firstContact}, 'finished', ${YEAR_START}::timestamptz + g * interval '1 minute', 1, 60, '{"note": "financing refund"}'
    FROM generate_series(1, 1000) g, campaigns c WHERE c.owner_id = ${args.otherId}`.execute(db);
  await handle.pool.query("SET maintenance_work_mem = '512MB'");
  for (const index of indexes) await handle.pool.query(index.indexdef);

  const { rows: [integration] } = await handle.pool.query<{ id: number }>(
    "INSERT INTO webhook_integrations (owner_id, name, url, allowed_hosts, request_schema, signing_secret) VALUES ($1, 'bench', 'https://hooks.example/x', ARRAY['hooks.example'], '{}', 'bench-signing-secret') RETURNING id",
    [args.ownerId],
  );
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, status, skipped_by, request_method, request_url, payload, http_status, duration_ms, created_at)
    SELECT ${integration!.id}, ${args.ownerId}, NULL, (ARRAY['sent', 'sent', 'sent', 'failed', 'skipped'])[1 + g % 5],
           CASE WHEN g % 5 = 4 THEN 'no_transcript' END, 'POST', 'https://hooks.example/x',
           json_build_object('call_id', g, 'status', 'finished', 'summary', 'Customer discussed the quote'), 200, 120, ${YEAR_START}::timestamptz + g * interval '1 minute'
    FROM generate_series(1, ${Math.floor(calls / 4)}::int) g`.execute(db);
  await sql`
    INSERT INTO audit_events (owner_id, actor_user_id, actor_label, kind, subject_type, subject_id, details, created_at)
    SELECT ${args.ownerId}, ${args.ownerId}, 'bench@example.com', (ARRAY['campaign.updated', 'contact.deleted', 'api_key.created', 'campaign.started'])[1 + g % 4], 'campaign', g % 100,
           '{}'::jsonb, ${YEAR_START}::timestamptz + g * interval '5 minutes'
    FROM generate_series(1, ${Math.floor(calls / 10)}::int) g`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  return { firstCampaign, firstContact, integrationId: integration!.id };
}
