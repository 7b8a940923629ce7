import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDialerWorker } from '../src/modules/dialer/dialer.worker.ts';
import { createAccount, createSubUser, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { waitFor } from './helpers/wait-for.ts';

/**
 * A person's right of access and right to be forgotten, on both databases: the person's data
 * spread over three campaigns (contacts, calls with what they said, our agent's conversations,
 * texts, a queued text, webhook deliveries, a do-not-call entry, an import, audit events) is
 * exported whole, then erased: no table of the database holds the number or the e-mail any more,
 * the number is still never dialled, another account's data is untouched, the export is empty.
 */
let t: TestApp;
let alice: Account;
let bob: Account;
const PHONE = '+14155550987';
const DIGITS = PHONE.slice(1);
const EMAIL = 'Jo.Private@example.org';
const SAID = `Sure, my number is ${PHONE} and my mail is ${EMAIL}, card 4111 1111 1111 1111`;

beforeAll(async () => {
  t = await createTestApp({ SIM_TIME_SCALE: '60', DIALER_TICK_MS: '50', LOG_LEVEL: 'error' });
  alice = await createAccount(t);
  bob = await createAccount(t);
});
afterAll(async () => t?.close());

const post = (who: { headers: Record<string, string> }, url: string, payload: unknown) => t.request({ method: 'POST', url, headers: who.headers, payload: payload as object });

/** Alice's three campaigns holding the person, and bob's own contact with the same number. */
async function personEverywhere() {
  const { campaigns, contacts } = await seed(t.deps.db, {
    campaigns: [{ owner: alice, title: 'One' }, { owner: alice, title: 'Two' }, { owner: alice, title: 'Three' }, { owner: bob, title: 'Bob\'s' }],
    contacts: [
      { campaign: 0, phone_number: PHONE, contact_data: { name: 'Jo Private', email: EMAIL } },
      { campaign: 1, phone_number: PHONE, contact_data: { name: 'Jo P.' } },
      // Found by e-mail only, with another number of the person's.
      { campaign: 2, phone_number: '+14155550988', contact_data: { email: EMAIL.toLowerCase() } },
      { campaign: 3, phone_number: PHONE, contact_data: { name: 'Bob\'s Jo', email: EMAIL } },
      { campaign: 0, phone_number: '+14155550111', contact_data: { name: 'Someone else' } },
    ],
  });
  const { calls } = await seed(t.deps.db, {
    calls: contacts.slice(0, 4).map((contact) => ({
      contact, status: 'finished', call_type: 'outbound', to_number: contact.phone_number, start_time: new Date(Date.now() - 7200_000), end_time: new Date(Date.now() - 7000_000),
      call_duration: 200, record_url: 'https://r.example/jo.wav', call_data: { provider: 'sim', transcript: [{ role: 'user', text: SAID }], summary: SAID }, contact_data: contact.contact_data,
    })),
  });
  for (const call of calls) await sql`INSERT INTO agent_conversations (call_id, transcript, transfer_to) VALUES (${call.id}, ${JSON.stringify([{ role: 'user', text: SAID }])}::jsonb, ${PHONE})`.execute(t.deps.db);
  const hook = await post(alice, '/api/v1/integrations/webhooks/', { url: 'https://crm.example.com/hook', request_schema: { name: 'client name' }, campaign_ids: [campaigns[0].id] });
  expect(hook.statusCode, hook.body).toBe(200);
  await sql`INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, kind, status, payload, response_body)
    VALUES (${hook.json().id}, ${alice.id}, ${calls[0]!.id}, 'call', 'sent', ${JSON.stringify({ name: 'Jo Private', phone: PHONE, email: EMAIL })}::jsonb, ${`ok ${EMAIL}`})`.execute(t.deps.db);
  const [message] = await t.deps.db.insertInto('messages').values({
    owner_id: alice.id, campaign_id: campaigns[0].id, contact_id: contacts[0].id, call_id: calls[0]!.id, direction: 'inbound', role_id: 'contact', source: 'sms',
    body: SAID, status: 'received', to_number: '+14155550100', from_number: PHONE, provider: 'sim',
  }).returning('id').execute();
  await t.deps.db.insertInto('message_jobs').values({ owner_id: alice.id, campaign_id: campaigns[1].id, contact_id: contacts[1].id, purpose: 'manual', body: `Hi Jo ${EMAIL}`, due_at: new Date(Date.now() + 3600_000) }).execute();
  expect((await post(alice, '/api/v1/suppressions/', { phone_number: PHONE, reason: 'asked by Jo' })).statusCode).toBe(200);
  const bulk = await post(alice, '/api/v1/contacts/bulk', [{ phone_number: PHONE, campaign_id: campaigns[2].id, contact_data: { email: EMAIL } }]);
  expect(bulk.statusCode, bulk.body).toBe(200);
  return { campaigns, contacts, calls, message: message!.id };
}

/** Every row of every table of the database that holds `needle`, as "table: n". */
async function holders(needle: string): Promise<string[]> {
  const { rows: tables } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(t.deps.db);
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table_name)} x WHERE strpos(lower(x::text), lower(${needle})) > 0`.execute(t.deps.db);
    if (rows[0]!.n > 0) found.push(`${table_name}: ${rows[0]!.n}`);
  }
  return found;
}

describe('a person\'s data, exported then erased', () => {
  it('exports the person whole, erases them from every table, keeps the number off the dialer, leaves bob\'s alone; the export is then empty', async () => {
    const { campaigns, contacts } = await personEverywhere();
    const sub = await createSubUser(t, alice.id, campaigns.slice(0, 3).map((c) => c.id));
    expect((await post(sub, '/api/v1/privacy/exports', { phone_number: PHONE })).statusCode).toBe(403);
    expect((await post(sub, '/api/v1/privacy/erasures', { phone_number: PHONE })).statusCode).toBe(403);
    const bad = await post(alice, '/api/v1/privacy/erasures', { phone_number: 'not a number' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().detail)).toContain('phone_number');

    const exported = await post(alice, '/api/v1/privacy/exports', { phone_number: '(415) 555-0987', email: EMAIL });
    expect(exported.statusCode, exported.body).toBe(200);
    const doc = exported.json();
    expect(doc.counts).toEqual({ contacts: 3, calls: 3, messages: 1, message_jobs: 1, webhook_deliveries: 1, suppressions: 1 });
    expect(doc.subject.phone_numbers.sort()).toEqual([PHONE, '+14155550988']);
    expect(doc.calls[0].call_data.summary).toBe(SAID);
    expect(doc.contacts.map((c: { campaign_id: number }) => c.campaign_id).sort()).toEqual(campaigns.slice(0, 3).map((c) => c.id).sort());

    const erased = await post(alice, '/api/v1/privacy/erasures', { phone_number: PHONE, email: EMAIL });
    expect(erased.statusCode, erased.body).toBe(200);
    const report = erased.json();
    expect(report.erased).toMatchObject({ contacts: 3, calls: 3, messages: 1, message_jobs: 1, webhook_deliveries: 1, suppressions: 1, suppressions_added: 1 });
    expect(report.erased.audit_events).toBeGreaterThan(0);
    expect(report.erased.import_chunks).toBe(1);
    expect(report.mark).toMatch(/^erased:[0-9a-f]{32}$/);

    // Nowhere in alice's data: the number (with or without +), the other number, the e-mail, the words.
    for (const needle of [PHONE, DIGITS, '14155550988', EMAIL, '4111 1111']) {
      const left = (await holders(needle)).filter((h) => !h.startsWith('contacts: ') && !h.startsWith('calls: ') && !h.startsWith('agent_conversations: ') && !h.startsWith('webhook_deliveries: '));
      expect(left, needle).toEqual([]);
    }
    // Bob's rows are his: they still hold the number, and only his.
    const stillThere = await sql<{ owner_id: number }>`SELECT DISTINCT owner_id FROM contacts WHERE phone_number = ${PHONE} OR contact_data::text LIKE ${`%${EMAIL}%`}`.execute(t.deps.db);
    expect(stillThere.rows.map((r) => Number(r.owner_id))).toEqual([bob.id]);
    const aliceCalls = await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls k WHERE k.owner_id = ${alice.id} AND strpos(k::text, ${DIGITS}) > 0`.execute(t.deps.db);
    expect(aliceCalls.rows[0]!.n).toBe(0);
    const aliceTalk = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM agent_conversations a JOIN calls k ON k.id = a.call_id WHERE k.owner_id = ${alice.id} AND (strpos(a::text, ${DIGITS}) > 0 OR strpos(a::text, '4111') > 0)`.execute(t.deps.db);
    expect(aliceTalk.rows[0]!.n).toBe(0);
    const aliceBodies = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries d WHERE d.owner_id = ${alice.id} AND strpos(lower(d::text), lower(${EMAIL})) > 0`.execute(t.deps.db);
    expect(aliceBodies.rows[0]!.n).toBe(0);
    // What stays: the contacts' places and the calls' figures, and someone else untouched.
    const kept = await t.deps.db.selectFrom('contacts').select(['id', 'phone_number', 'status', 'contact_data']).where('id', 'in', contacts.slice(0, 3).map((c) => c.id)).orderBy('id').execute();
    expect(kept.every((c) => c.phone_number.startsWith('erased:') && c.status === 'do_not_disturb' && JSON.stringify(c.contact_data) === '{}')).toBe(true);
    expect((await t.deps.db.selectFrom('calls').select('call_duration').where('owner_id', '=', alice.id).execute()).map((c) => c.call_duration)).toEqual([200, 200, 200]);
    expect((await t.deps.db.selectFrom('contacts').select('contact_data').where('id', '=', contacts[4]!.id).executeTakeFirstOrThrow()).contact_data).toEqual({ name: 'Someone else' });
    const job = await t.deps.db.selectFrom('message_jobs').select(['status', 'body']).where('owner_id', '=', alice.id).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'cancelled', body: null });
    const audit = await t.deps.db.selectFrom('audit_events').select('details').where('owner_id', '=', alice.id).where('kind', '=', 'privacy.person_erased').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ mark: report.mark, erased: { contacts: 3 } });

    // The export finds nothing any more.
    const after = await post(alice, '/api/v1/privacy/exports', { phone_number: PHONE, email: EMAIL });
    expect(after.json().counts).toEqual({ contacts: 0, calls: 0, messages: 0, message_jobs: 0, webhook_deliveries: 0, suppressions: 0 });

    // The number comes back in a new list: it is still never dialled.
    const again = await post(alice, '/api/v1/contacts/', { campaign_id: campaigns[1].id, phone_number: PHONE, status: 'new', contact_data: { name: 'Jo again' } });
    expect(again.statusCode, again.body).toBe(200);
    expect((await post(alice, `/api/v1/campaigns/enqueue_calls/${campaigns[1].id}`, {})).statusCode).toBe(200);
    const worker = createDialerWorker(t.deps);
    worker.start();
    try {
      const contact = await waitFor(async () => {
        const row = await t.deps.db.selectFrom('contacts').selectAll().where('id', '=', again.json().id).executeTakeFirstOrThrow();
        return row.status === 'do_not_disturb' ? row : null;
      }, 10_000);
      expect(contact.next_action_code).toBe('suppressed');
    } finally {
      await worker.stop();
    }
    expect(await t.deps.db.selectFrom('calls').select('id').where('contact_id', '=', again.json().id).execute()).toEqual([]);
  });

  it('refuses to erase a person on a call in progress (409) and changes nothing', async () => {
    const { contacts: [contact] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0, phone_number: '+14155550777', contact_data: { name: 'On the line' } }] });
    await seed(t.deps.db, { calls: [{ contact, status: 'in progress', to_number: '+14155550777', start_time: new Date() }] });
    const res = await post(alice, '/api/v1/privacy/erasures', { phone_number: '+14155550777' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/A call with this person is in progress/);
    expect((await t.deps.db.selectFrom('contacts').select('contact_data').where('id', '=', contact.id).executeTakeFirstOrThrow()).contact_data).toEqual({ name: 'On the line' });
  });
});
