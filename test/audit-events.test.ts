import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredAuditEvents } from '../src/modules/audit/audit.repository.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { bearer, createAccount, createCampaignViaApi, createSubUser, login, type Account, type SubUser } from './helpers/factories.ts';

// Every audited action over HTTP writes exactly one event with its actor, subject and origin.

let t: TestApp;
let alice: Account;
let bob: Account;
let aliceToken: Record<string, string>;
let sub: SubUser;
let campaignId: number;

const UA = 'audit-test/1.0';
type Headers = Record<string, string>;
type Event = { id: number; kind: string; actor: Record<string, unknown>; subject: { type: string; id: number | null }; details: Record<string, unknown>; ip: string | null; user_agent: string | null; created_at: string };

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  aliceToken = bearer(await login(t, alice.email, alice.password));
  campaignId = (await createCampaignViaApi(t, alice.headers)).id;
  sub = await createSubUser(t, alice.id, [campaignId]);
});
afterAll(() => t?.close());

const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
  t.request({ method: method as 'GET', url, headers: { ...headers, 'user-agent': UA }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function list(headers: Headers, query = ''): Promise<{ data: Event[]; count: number }> {
  const res = await call('GET', `/api/v1/audit-events?limit=1000${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The events of `owner` that `action` wrote, oldest first. */
async function eventsOf(action: () => Promise<{ statusCode: number; body: string }>, owner: Account = alice, expectedStatus = 200): Promise<Event[]> {
  const before = new Set((await list(owner.headers)).data.map((e) => e.id));
  const res = await action();
  expect(res.statusCode, res.body).toBe(expectedStatus);
  return (await list(owner.headers)).data.filter((e) => !before.has(e.id)).reverse();
}

/** The one event `action` wrote. */
async function oneEvent(action: () => Promise<{ statusCode: number; body: string }>): Promise<Event> {
  const events = await eventsOf(action);
  expect(events).toHaveLength(1);
  return events[0]!;
}

const byAlice = { type: 'user', user_id: 0, sub_user_id: null, api_key_id: null, label: '' };
beforeAll(() => Object.assign(byAlice, { user_id: alice.id, label: alice.email }));
const origin = { ip: '127.0.0.1', user_agent: UA };

describe('audited actions', () => {
  it('records an API key created by API key, naming the key as the actor', async () => {
    const keys = (await call('GET', '/api/v1/api-keys', alice.headers)).json();
    const actingKey = keys.find((k: { name: string }) => k.name === 'test');
    const event = await oneEvent(() => call('POST', '/api/v1/api-keys', alice.headers, { name: 'ci' }));
    expect(event).toMatchObject({ kind: 'api_key.created', subject: { type: 'api_key' }, details: { name: 'ci' }, ...origin });
    expect(event.actor).toEqual({ type: 'api_key', user_id: alice.id, sub_user_id: null, api_key_id: actingKey.id, label: 'api key test' });
    expect(event.details.masked_key).toMatch(/\*\*\*\*$/);
  });

  it('records an API key deleted, and nothing for a refused delete', async () => {
    const key = (await call('POST', '/api/v1/api-keys', aliceToken, { name: 'old' })).json();
    const event = await oneEvent(() => call('DELETE', `/api/v1/api-keys/${key.id}`, aliceToken));
    expect(event).toMatchObject({ kind: 'api_key.deleted', actor: byAlice, subject: { type: 'api_key', id: key.id }, details: { name: 'old' }, ...origin });
    const other = (await call('POST', '/api/v1/api-keys', alice.headers, { name: 'kept' })).json();
    expect(await eventsOf(() => call('DELETE', `/api/v1/api-keys/${other.id}`, bob.headers), alice, 403)).toEqual([]);
  });

  it('records pausing, resuming, archiving and unarchiving, and nothing when the state stays', async () => {
    const put = (headers: Headers, body: Record<string, unknown>) => () => call('PUT', `/api/v1/campaigns/${campaignId}`, headers, body);
    expect(await oneEvent(put(aliceToken, { is_paused: true }))).toMatchObject({ kind: 'campaign.paused', actor: byAlice, subject: { type: 'campaign', id: campaignId }, ...origin });
    expect(await eventsOf(put(aliceToken, { is_paused: true, description: 'same state' }))).toEqual([]);
    const resumed = await oneEvent(put(sub.headers, { is_paused: false }));
    expect(resumed).toMatchObject({ kind: 'campaign.resumed', actor: { type: 'sub_user', user_id: null, sub_user_id: sub.id, label: sub.username }, ...origin });
    expect(await oneEvent(put(aliceToken, { is_archive: true }))).toMatchObject({ kind: 'campaign.archived', subject: { id: campaignId } });
    expect(await oneEvent(put(aliceToken, { is_archive: false, is_paused: null }))).toMatchObject({ kind: 'campaign.unarchived' });
    const both = await eventsOf(put(aliceToken, { is_archive: true, is_paused: true }));
    expect(both.map((e) => e.kind)).toEqual(['campaign.paused', 'campaign.archived']);
    await put(aliceToken, { is_archive: false, is_paused: false })();
  });

  it('records approving and rejecting a sub-user\'s prompt change', async () => {
    const propose = async (prompt: string) => {
      const res = await call('PUT', `/api/v1/campaigns/${campaignId}`, sub.headers, { campaign_data: { prompt } });
      return res.json().prompt_history.find((h: { status: string }) => h.status === 'pending').id as number;
    };
    const first = await propose('be kind');
    const approved = await oneEvent(() => call('POST', `/api/v1/campaigns/${campaignId}/prompt-history/${first}/approve`, aliceToken, { comment: 'fine' }));
    expect(approved).toMatchObject({ kind: 'prompt.approved', actor: byAlice, subject: { type: 'prompt_history', id: first }, details: { campaign_id: campaignId, comment: 'fine' }, ...origin });
    expect(await eventsOf(() => call('POST', `/api/v1/campaigns/${campaignId}/prompt-history/${first}/reject`, aliceToken), alice, 409)).toEqual([]);
    const second = await propose('be rude');
    const rejected = await oneEvent(() => call('POST', `/api/v1/campaigns/${campaignId}/prompt-history/${second}/reject`, aliceToken));
    expect(rejected).toMatchObject({ kind: 'prompt.rejected', subject: { id: second }, details: { comment: null } });
  });

  it('records a campaign started by either campaign-wide queue operation, and nothing when refused', async () => {
    const viaCampaigns = await oneEvent(() => call('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`, aliceToken));
    expect(viaCampaigns).toMatchObject({ kind: 'campaign.started', actor: byAlice, subject: { type: 'campaign', id: campaignId }, details: { status: 'new', limit: null, message: 'Queued 0 contacts' }, ...origin });
    const viaContacts = await oneEvent(() => call('POST', `/api/v1/contacts/enqueue_calls/${campaignId}?status=failed&limit=5`, sub.headers));
    expect(viaContacts).toMatchObject({ kind: 'campaign.started', actor: { type: 'sub_user', sub_user_id: sub.id }, details: { status: 'failed', limit: 5 } });
    expect(await eventsOf(() => call('POST', `/api/v1/campaigns/enqueue_calls/${campaignId}`, bob.headers), alice, 403)).toEqual([]);
    expect((await list(bob.headers)).data.filter((e) => e.kind === 'campaign.started')).toEqual([]);
  });

  it('records grants added and removed once each, and nothing for a grant that changes nothing or fails', async () => {
    const second = (await createCampaignViaApi(t, alice.headers)).id;
    const third = (await createCampaignViaApi(t, alice.headers)).id;
    const grants = `/api/v1/sub-users/${sub.id}/campaigns`;
    const added = await oneEvent(() => call('POST', `${grants}/${second}`, aliceToken));
    expect(added).toMatchObject({ kind: 'sub_user.grant_added', actor: byAlice, subject: { type: 'sub_user', id: sub.id }, details: { campaign_ids: [second] }, ...origin });
    expect(await eventsOf(() => call('POST', `${grants}/${second}`, aliceToken))).toEqual([]);
    expect(await oneEvent(() => call('DELETE', `${grants}/${second}`, aliceToken))).toMatchObject({ kind: 'sub_user.grant_removed', details: { campaign_ids: [second] } });
    expect(await eventsOf(() => call('DELETE', `${grants}/${second}`, aliceToken))).toEqual([]);
    const replaced = await eventsOf(() => call('PUT', grants, aliceToken, { campaign_ids: [third, campaignId, second] }));
    expect(replaced.map((e) => [e.kind, e.details.campaign_ids])).toEqual([['sub_user.grant_added', [second, third]]]);
    const narrowed = await eventsOf(() => call('PUT', grants, aliceToken, { campaign_ids: [campaignId, third] }));
    expect(narrowed.map((e) => [e.kind, e.details.campaign_ids])).toEqual([['sub_user.grant_removed', [second]]]);
    expect(await eventsOf(() => call('PUT', grants, aliceToken, { campaign_ids: [third, 999999] }), alice, 404)).toEqual([]);
  });

  it('records webhook targets created, re-pointed, re-authenticated, rotated and deleted, never their secrets', async () => {
    const body = { name: 'crm', url: 'https://crm.example.com/hook', request_schema: { type: 'object', properties: { ok: { type: 'boolean' } } }, campaign_ids: [campaignId] };
    const base = '/api/v1/integrations/webhooks';
    let id = 0;
    const created = await oneEvent(async () => {
      const res = await call('POST', base, aliceToken, body);
      id = res.json().id;
      return res;
    });
    expect(created).toMatchObject({ kind: 'webhook.target_changed', actor: byAlice, subject: { type: 'webhook_integration', id }, details: { change: 'created', url: body.url, auth_type: 'none' }, ...origin });
    expect(await eventsOf(() => call('PUT', `${base}/${id}`, aliceToken, { name: 'renamed', timeout: 10 }))).toEqual([]);
    const moved = await oneEvent(() => call('PUT', `${base}/${id}`, aliceToken, { url: 'https://crm.example.com/v2' }));
    expect(moved.details).toEqual({ change: 'updated', url: 'https://crm.example.com/v2', url_before: body.url, auth_type: 'none', fields: ['url'] });
    const authed = await oneEvent(() => call('PUT', `${base}/${id}`, aliceToken, { auth_type: 'bearer', bearer_token: 'secret-token-value' }));
    expect(authed.details).toMatchObject({ change: 'updated', auth_type: 'bearer', fields: ['auth_type', 'bearer_token'] });
    expect(JSON.stringify(authed)).not.toContain('secret-token-value');
    expect(await oneEvent(() => call('POST', `${base}/${id}/signing-secret`, aliceToken))).toMatchObject({ details: { change: 'signing_secret_rotated' } });
    expect(await oneEvent(() => call('DELETE', `${base}/${id}`, aliceToken))).toMatchObject({ subject: { id }, details: { change: 'deleted', url: 'https://crm.example.com/v2' } });
  });
});

describe('GET /api/v1/audit-events', () => {
  it('is for account owners: a sub-user gets 403', async () => {
    expect((await call('GET', '/api/v1/audit-events', sub.headers)).statusCode).toBe(403);
  });

  it('never shows another account\'s events', async () => {
    await call('POST', '/api/v1/api-keys', bob.headers, { name: 'bob key' });
    const bobs = await list(bob.headers);
    expect(bobs.count).toBe(1);
    expect(bobs.data[0]).toMatchObject({ kind: 'api_key.created', actor: { user_id: bob.id } });
    expect((await list(alice.headers)).data.every((e) => e.actor.user_id === alice.id || e.actor.sub_user_id === sub.id)).toBe(true);
    expect((await list(alice.headers, `&actor=user:${bob.id}`)).count).toBe(0);
  });

  it('lists newest first with a total count and pages by skip and limit', async () => {
    const all = await list(alice.headers);
    expect(all.count).toBe(all.data.length);
    expect(all.data.map((e) => e.id)).toEqual([...all.data.map((e) => e.id)].sort((a, b) => b - a));
    const page = (await call('GET', '/api/v1/audit-events?skip=2&limit=3', alice.headers)).json();
    expect(page).toEqual({ data: all.data.slice(2, 5), count: all.count, count_exact: true });
  });

  it('filters by kind, as repeated keys or a comma list', async () => {
    const repeated = await list(alice.headers, '&kind=campaign.paused&kind=campaign.resumed');
    expect(repeated.count).toBeGreaterThanOrEqual(3);
    expect(new Set(repeated.data.map((e) => e.kind))).toEqual(new Set(['campaign.paused', 'campaign.resumed']));
    expect(await list(alice.headers, '&kind=campaign.paused,campaign.resumed')).toEqual(repeated);
    expect((await call('GET', '/api/v1/audit-events?kind=campaign.exploded', alice.headers)).statusCode).toBe(422);
  });

  it('filters by actor id or label', async () => {
    const bySub = await list(alice.headers, `&actor=sub_user:${sub.id}`);
    expect(bySub.count).toBeGreaterThan(0);
    expect(bySub.data.every((e) => e.actor.sub_user_id === sub.id)).toBe(true);
    expect((await list(alice.headers, `&actor=${encodeURIComponent(sub.username.toUpperCase())}`)).data).toEqual(bySub.data);
    const byKeys = await list(alice.headers, '&actor=api%20key');
    expect(byKeys.count).toBeGreaterThan(0);
    expect(byKeys.data.every((e) => e.actor.type === 'api_key')).toBe(true);
    const keyId = byKeys.data[0]!.actor.api_key_id;
    expect((await list(alice.headers, `&actor=api_key:${keyId}`)).data.every((e) => e.actor.api_key_id === keyId)).toBe(true);
    const byAccount = await list(alice.headers, `&actor=user:${alice.id}`);
    expect(byAccount.count).toBe((await list(alice.headers)).count - bySub.count);
    expect((await list(alice.headers, '&actor=%25')).count).toBe(0);
  });

  it('filters by time: since inclusive, until exclusive', async () => {
    const all = (await list(alice.headers)).data;
    const pivot = all[Math.floor(all.length / 2)]!.created_at;
    const since = await list(alice.headers, `&since=${encodeURIComponent(pivot)}`);
    const until = await list(alice.headers, `&until=${encodeURIComponent(pivot)}`);
    expect(since.count + until.count).toBe(all.length);
    expect(since.data.every((e) => e.created_at >= pivot)).toBe(true);
    expect(until.data.every((e) => e.created_at < pivot)).toBe(true);
    expect((await list(alice.headers, '&since=2999-01-01T00:00:00Z')).count).toBe(0);
  });
});

describe('the audit_events table', () => {
  const run = (text: string) => sql.raw(text).execute(t.deps.db);

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    await expect(run(`UPDATE audit_events SET actor_label = 'someone else' WHERE owner_id = ${alice.id}`)).rejects.toThrow(/append-only/);
    await expect(run(`DELETE FROM audit_events WHERE owner_id = ${alice.id}`)).rejects.toThrow(/append-only/);
    await expect(run('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect((await list(alice.headers)).data.every((e) => e.actor.label !== 'someone else')).toBe(true);
  });

  it('lets only the purge delete, and only events older than 400 days', async () => {
    const insert = (age: string) => run(`INSERT INTO audit_events (owner_id, actor_label, kind, subject_type, created_at)
      VALUES (${bob.id}, 'old', 'api_key.created', 'api_key', now() - interval '${age}')`);
    await insert('401 days');
    await insert('399 days');
    await expect(run(`DELETE FROM audit_events WHERE owner_id = ${bob.id} AND actor_label = 'old'`)).rejects.toThrow(/append-only/);
    await expect(t.deps.db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('voice_campaigns.audit_purge', 'on', true)`.execute(trx);
      await sql.raw(`DELETE FROM audit_events WHERE owner_id = ${bob.id}`).execute(trx);
    })).rejects.toThrow(/append-only/);
    expect(await purgeExpiredAuditEvents(t.deps.db)).toBe(1);
    const left = await t.deps.db.selectFrom('audit_events').select('actor_label').where('owner_id', '=', bob.id).where('actor_label', '=', 'old').execute();
    expect(left).toHaveLength(1);
  });
});
