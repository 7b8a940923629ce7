import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeCalls, retentionRules } from '../src/modules/privacy/retention/retention-purge.ts';
import { purgeDue } from '../src/modules/privacy/retention/retention.worker.ts';
import { createAccount, createSubUser, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Retention on both databases: the account's (and a campaign's stricter) retention_days empty
 * the personal fields of calls, agent conversations, texts and webhook deliveries past their
 * time, at a clock the test sets; rows inside their time and calls in progress are untouched,
 * what analytics reads stays, each run that emptied anything is audited with its counts, and a
 * purge stopped half-way goes on without doing anything twice.
 */
let t: TestApp;
let alice: Account;
let bob: Account;
const DAY = 86_400_000;
const NOW = new Date('2026-11-20T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const SPOKEN = 'My card is 4111 1111 1111 1111 and I live at 12 Baker Street';

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
});
afterAll(async () => t?.close());

const api = (who: { headers: Record<string, string> }, method: 'GET' | 'PUT', url: string, payload?: unknown) =>
  t.request({ method, url, headers: who.headers, ...(payload !== undefined && { payload: payload as object }) });

describe('retention settings', () => {
  it('are null (kept) until the owner sets them; a change is audited; a sub-user reads but may not change them; bad values change nothing', async () => {
    expect((await api(alice, 'GET', '/api/v1/privacy/settings')).json()).toEqual({ retention_days: null, updated_at: null });
    for (const bad of [0, 36501, 1.5, 'thirty', -3]) {
      const res = await api(alice, 'PUT', '/api/v1/privacy/settings', { retention_days: bad });
      expect(res.statusCode, String(bad)).toBe(422);
      expect(JSON.stringify(res.json().detail)).toContain('retention_days');
    }
    expect((await api(alice, 'GET', '/api/v1/privacy/settings')).json().retention_days).toBeNull();
    const saved = await api(alice, 'PUT', '/api/v1/privacy/settings', { retention_days: 30 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ retention_days: 30 });
    const sub = await createSubUser(t, alice.id, []);
    expect((await api(sub, 'GET', '/api/v1/privacy/settings')).json()).toMatchObject({ retention_days: 30 });
    const refused = await api(sub, 'PUT', '/api/v1/privacy/settings', { retention_days: 1 });
    expect(refused.statusCode).toBe(403);
    expect((await api(alice, 'GET', '/api/v1/privacy/settings')).json()).toMatchObject({ retention_days: 30 });
    const events = await t.deps.db.selectFrom('audit_events').select(['kind', 'details']).where('owner_id', '=', alice.id).where('kind', '=', 'privacy.retention_changed').execute();
    expect(events.map((e) => e.details)).toEqual([{ from: null, to: 30 }]);
    // Bob's settings are his own.
    expect((await api(bob, 'GET', '/api/v1/privacy/settings')).json().retention_days).toBeNull();
  });

  it('a campaign keeps less, never more: the shorter applies; another account\'s campaign is 403', async () => {
    const { campaigns: [c] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const strict = await api(alice, 'PUT', `/api/v1/campaigns/${c.id}/privacy`, { retention_days: 7 });
    expect(strict.statusCode, strict.body).toBe(200);
    expect(strict.json()).toMatchObject({ campaign_id: c.id, retention_days: 7, account_retention_days: 30, effective_retention_days: 7 });
    const loose = await api(alice, 'PUT', `/api/v1/campaigns/${c.id}/privacy`, { retention_days: 90 });
    expect(loose.json()).toMatchObject({ retention_days: 90, effective_retention_days: 30 });
    expect((await api(bob, 'GET', `/api/v1/campaigns/${c.id}/privacy`)).statusCode).toBe(403);
    expect((await api(bob, 'PUT', `/api/v1/campaigns/${c.id}/privacy`, { retention_days: 1 })).statusCode).toBe(403);
    expect((await api(alice, 'GET', `/api/v1/campaigns/${c.id}/privacy`)).json()).toMatchObject({ retention_days: 90 });
  });
});

/** An account with retention `days`, a campaign, and calls ended `ages` days ago, each with a conversation and a delivery. */
async function scene(owner: Account, days: number | null, ages: number[], campaignDays?: number) {
  if (days !== null) await sql`INSERT INTO privacy_settings (owner_id, retention_days) VALUES (${owner.id}, ${days}) ON CONFLICT (owner_id) DO UPDATE SET retention_days = ${days}`.execute(t.deps.db);
  const { campaigns: [campaign], contacts: [contact] } = await seed(t.deps.db, { campaigns: [{ owner }], contacts: [{ campaign: 0, contact_data: { name: 'Ann Lee', dob: '1980-02-03' } }] });
  if (campaignDays !== undefined) await sql`INSERT INTO campaign_privacy (campaign_id, owner_id, retention_days) VALUES (${campaign.id}, ${owner.id}, ${campaignDays})`.execute(t.deps.db);
  const { calls } = await seed(t.deps.db, {
    calls: ages.map((age) => ({
      contact, status: 'finished', start_time: ago(age + 0.01), end_time: ago(age), call_duration: 30, cost: 0.12, action_status: 'interested', record_url: 'https://r.example/rec.wav',
      call_data: { provider: 'sim', transcript: [{ role: 'user', text: SPOKEN }], summary: `Ann said: ${SPOKEN}`, ended_reason: 'customer-ended-call', opt_out: { detected_by: 'phrase', phrase: 'stop calling me Ann', language: 'en' } },
      contact_data: { name: 'Ann Lee' },
    })),
  });
  const hook = await t.request({ method: 'POST', url: '/api/v1/integrations/webhooks/', headers: owner.headers, payload: { url: 'https://crm.example.com/hook', request_schema: { name: 'client name' }, campaign_ids: [campaign.id] } });
  expect(hook.statusCode, hook.body).toBe(200);
  for (const call of calls) {
    await sql`INSERT INTO agent_conversations (call_id, transcript) VALUES (${call.id}, ${JSON.stringify([{ role: 'user', text: SPOKEN }])}::jsonb)`.execute(t.deps.db);
    await sql`INSERT INTO webhook_deliveries (integration_id, owner_id, call_id, kind, status, payload, response_body, created_at)
      VALUES (${hook.json().id}, ${owner.id}, ${call.id}, 'call', 'sent', ${JSON.stringify({ name: 'Ann Lee', note: SPOKEN })}::jsonb, 'ok Ann', ${call.end_time})`.execute(t.deps.db);
    // The follow-up text after the call, sent when it ended.
    await t.deps.db.insertInto('messages').values({
      owner_id: owner.id, campaign_id: campaign.id, contact_id: contact.id, call_id: call.id, direction: 'outbound', role_id: 'assistant', source: 'sms',
      purpose: 'follow_up', body: `Hi Ann, as you said: ${SPOKEN}`, status: 'delivered', to_number: contact.phone_number, provider: 'sim', created_at: call.end_time!,
    }).execute();
  }
  return { campaign, contact, calls };
}

const callRow = (id: number) => t.deps.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the retention job', () => {
  it('empties what is past its time and only that; keeps what analytics reads; audits the counts; a second run does nothing', async () => {
    const owner = await createAccount(t);
    const { calls: [old, recent, live] } = await scene(owner, 30, [45, 10, 60]);
    await t.deps.db.updateTable('calls').set({ status: 'in progress', end_time: null }).where('id', '=', live!.id).execute();
    // A call in progress has told no webhook yet, nor been followed by a text.
    await t.deps.db.deleteFrom('webhook_deliveries').where('call_id', '=', live!.id).execute();
    await t.deps.db.deleteFrom('messages').where('call_id', '=', live!.id).execute();
    const recentBefore = await callRow(recent!.id);
    const liveBefore = await callRow(live!.id);

    const counts = await purgeDue(t.deps, NOW);
    expect(counts.get(owner.id)).toEqual({ calls: 1, conversations: 1, messages: 1, deliveries: 1 });
    const texts = await t.deps.db.selectFrom('messages').select(['call_id', 'body', 'status', 'personal_data_purged_at']).where('owner_id', '=', owner.id).orderBy('id').execute();
    expect(texts.map((m) => [m.call_id, m.body, m.status, m.personal_data_purged_at !== null])).toEqual([[old!.id, '', 'delivered', true], [recent!.id, `Hi Ann, as you said: ${SPOKEN}`, 'delivered', false]]);

    const purged = await callRow(old!.id);
    expect(purged.personal_data_purged_at).not.toBeNull();
    expect(purged.call_data).toEqual({ provider: 'sim', ended_reason: 'customer-ended-call', opt_out: { detected_by: 'phrase', language: 'en' }, transcript: [] });
    expect(purged).toMatchObject({ contact_data: {}, record_url: null, status: 'finished', call_duration: 30, action_status: 'interested' });
    expect(Number(purged.cost)).toBeCloseTo(0.12);
    const conversation = await t.deps.db.selectFrom('agent_conversations').select('transcript').where('call_id', '=', old!.id).executeTakeFirstOrThrow();
    expect(conversation.transcript).toEqual([]);
    const delivery = await t.deps.db.selectFrom('webhook_deliveries').select(['payload', 'response_body', 'status']).where('call_id', '=', old!.id).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ payload: {}, response_body: null, status: 'sent' });
    // Inside its time, or in progress: untouched, to the byte.
    expect(await callRow(recent!.id)).toEqual(recentBefore);
    expect(await callRow(live!.id)).toEqual(liveBefore);
    // Nothing of what was said is left on the purged rows.
    const leftovers = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM calls WHERE id = ${old!.id} AND (call_data::text LIKE '%4111%' OR call_data::text LIKE '%Ann%' OR contact_data::text LIKE '%Ann%')`.execute(t.deps.db);
    expect(leftovers.rows[0]!.n).toBe(0);

    const audit = await t.deps.db.selectFrom('audit_events').select(['kind', 'actor_label', 'subject_id', 'details']).where('owner_id', '=', owner.id).where('kind', '=', 'privacy.retention_purged').execute();
    expect(audit).toEqual([{ kind: 'privacy.retention_purged', actor_label: 'retention', subject_id: owner.id, details: { calls: 1, conversations: 1, messages: 1, deliveries: 1, at: NOW.toISOString() } }]);
    expect((await purgeDue(t.deps, NOW)).get(owner.id)).toEqual({ calls: 0, conversations: 0, messages: 0, deliveries: 0 });
    expect(await t.deps.db.selectFrom('audit_events').select('id').where('owner_id', '=', owner.id).where('kind', '=', 'privacy.retention_purged').execute()).toHaveLength(1);
  });

  it('applies a campaign\'s stricter rule, and leaves accounts without a rule alone', async () => {
    const strict = await createAccount(t);
    const { calls: [a, b] } = await scene(strict, 30, [10, 3], 7);
    const keeper = await createAccount(t);
    const { calls: [c] } = await scene(keeper, null, [4000]);
    await purgeDue(t.deps, NOW);
    expect((await callRow(a!.id)).personal_data_purged_at).not.toBeNull();
    expect((await callRow(b!.id)).personal_data_purged_at).toBeNull();
    expect((await callRow(c!.id)).personal_data_purged_at).toBeNull();
    expect((await retentionRules(t.deps.db)).some((r) => r.ownerId === keeper.id)).toBe(false);
  });

  it('goes on after a purge stopped half-way, emptying each row once', async () => {
    const owner = await createAccount(t);
    const { campaign, calls } = await scene(owner, 5, [20, 21, 22, 23, 24]);
    // A run that stopped after two rows (a crash between batches).
    const rule = (await retentionRules(t.deps.db)).find((r) => r.campaignId === campaign.id)!;
    expect((await purgeCalls(t.deps.db, rule, NOW, 2)).calls).toBe(2);
    const firstStamps = await t.deps.db.selectFrom('calls').select(['id', 'personal_data_purged_at']).where('id', 'in', calls.map((c) => c.id)).where('personal_data_purged_at', 'is not', null).execute();
    expect(firstStamps).toHaveLength(2);
    const later = new Date(NOW.getTime() + 60_000);
    expect((await purgeDue(t.deps, later)).get(owner.id)).toMatchObject({ calls: 3, deliveries: 3 });
    const all = await t.deps.db.selectFrom('calls').select(['id', 'personal_data_purged_at']).where('id', 'in', calls.map((c) => c.id)).execute();
    expect(all.every((r) => r.personal_data_purged_at !== null)).toBe(true);
    // The first two kept their first stamp: not emptied again.
    for (const first of firstStamps) expect(all.find((r) => r.id === first.id)!.personal_data_purged_at).toEqual(first.personal_data_purged_at);
  });
});
