import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_UP_TO } from '../src/db/bounded-list.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The contacts, webhook deliveries and audit events lists count like the calls list (issue 31,
 * docs/scale.md): exactly while few match (count_exact true), past EXACT_COUNT_UP_TO the
 * planner's estimate (count_exact false), so a count never reads every row of a large account.
 * A list filtered by campaign counts its contacts exactly up to 100,000. Rows are written in one
 * INSERT ... SELECT generate_series each, then ANALYZEd so the planner knows the table.
 */
const MANY = 1500;
let t: TestApp;
let alice: Account;
let bob: Account;
let campaignId: number;
let aliceHook: number;
let bobHook: number;

const get = async (account: Account, url: string) => {
  const res = await t.request({ method: 'GET', url, headers: account.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; count_exact?: boolean; data: unknown[]; pagination?: unknown };
};

async function webhook(account: Account, campaign: number) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/integrations/webhooks',
    headers: account.headers,
    payload: { url: 'http://127.0.0.1:9/hook', request_schema: 'name - client name', campaign_ids: [campaign] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

/** An estimate is more than the exact bound and of the order of the rows that match. */
function expectEstimate(body: { count: number; count_exact?: boolean }, matching: number) {
  expect(body.count_exact).toBe(false);
  expect(body.count).toBeGreaterThan(EXACT_COUNT_UP_TO);
  expect(body.count).toBeLessThanOrEqual(matching * 2);
}

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  alice = await createAccount(t);
  bob = await createAccount(t);
  const { campaigns: [a, a2, b] } = await seed(t.deps.db, { campaigns: [{ owner: alice }, { owner: alice }, { owner: bob }] });
  campaignId = a.id;
  const db = t.deps.db;
  // Alice: MANY contacts in one campaign, 3 in another; Bob: 3.
  await sql`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status, creation_method)
    SELECT ${alice.id}, ${a.id}, '+1628' || (5000000 + i)::text, 'new', 'api' FROM generate_series(1, ${MANY}) AS i`.execute(db);
  await seed(db, { contacts: [{ campaign: a2 }, { campaign: a2 }, { campaign: a2, status: 'no_answer' }, { campaign: b }, { campaign: b }, { campaign: b }] });
  aliceHook = await webhook(alice, a.id);
  bobHook = await webhook(bob, b.id);
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, kind, status, finished_at)
    SELECT ${aliceHook}, ${alice.id}, 'test', CASE WHEN i <= 3 THEN 'failed' ELSE 'sent' END, now() FROM generate_series(1, ${MANY}) AS i`.execute(db);
  await sql`
    INSERT INTO webhook_deliveries (integration_id, owner_id, kind, status, finished_at)
    SELECT ${bobHook}, ${bob.id}, 'test', 'sent', now() FROM generate_series(1, 3) AS i`.execute(db);
  await sql`
    INSERT INTO audit_events (owner_id, actor_user_id, actor_label, kind, subject_type, subject_id, details)
    SELECT ${alice.id}, ${alice.id}, 'bench', 'suppression.added', 'suppression', i, '{}'::jsonb FROM generate_series(1, ${MANY}) AS i`.execute(db);
  await sql`ANALYZE contacts`.execute(db);
  await sql`ANALYZE webhook_deliveries`.execute(db);
  await sql`ANALYZE audit_events`.execute(db);
});
afterAll(() => t?.close());

describe('contacts list count', () => {
  it('estimates the account-wide list past 1000 matches, with count_exact false', async () => {
    const all = await get(alice, '/api/v1/contacts/?limit=5');
    expectEstimate(all, MANY + 3);
    expect(all.data).toHaveLength(5);
    expectEstimate(await get(alice, '/api/v1/contacts/?status=new&limit=1'), MANY);
  });

  it('counts a campaign exactly past 1000 contacts (on both contact lists)', async () => {
    expect(await get(alice, `/api/v1/contacts/?campaign_id=${campaignId}&limit=1`)).toMatchObject({ count: MANY, count_exact: true });
    expect(await get(alice, `/api/v1/contacts/campaign/${campaignId}?limit=1`)).toMatchObject({ count: MANY, count_exact: true });
  });

  it('counts few matches exactly', async () => {
    expect(await get(bob, '/api/v1/contacts/')).toMatchObject({ count: 3, count_exact: true });
    expect(await get(alice, '/api/v1/contacts/?status=no_answer')).toMatchObject({ count: 1, count_exact: true });
  });
});

describe('webhook deliveries count', () => {
  it('estimates past 1000 deliveries, with count_exact false', async () => {
    const all = await get(alice, `/api/v1/integrations/webhooks/${aliceHook}/deliveries?limit=5`);
    expectEstimate(all, MANY);
    expect(all.data).toHaveLength(5);
  });

  it('counts few matches exactly', async () => {
    expect(await get(bob, `/api/v1/integrations/webhooks/${bobHook}/deliveries`)).toMatchObject({ count: 3, count_exact: true });
    expect(await get(alice, `/api/v1/integrations/webhooks/${aliceHook}/deliveries?status=failed`)).toMatchObject({ count: 3, count_exact: true });
  });
});

describe('audit events count', () => {
  it('estimates past 1000 events, with count_exact false', async () => {
    const all = await get(alice, '/api/v1/audit-events/?limit=5');
    expectEstimate(all, MANY + 10);
    expect(all.data).toHaveLength(5);
  });

  it('counts few matches exactly', async () => {
    const few = await get(bob, '/api/v1/audit-events/');
    expect(few.count_exact).toBe(true);
    expect(few.count).toBe(few.data.length);
    expect(await get(alice, '/api/v1/audit-events/?kind=account.caps_changed')).toMatchObject({ count: 0, count_exact: true });
  });
});
