import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

// Issue 31: a statement timeout on every API query, not only the calls list. Requests use
// their own pool whose connections carry statement_timeout = API_STATEMENT_TIMEOUT_MS; the
// workers' pool has none. A table lock held elsewhere (a long migration, a stuck admin
// session) makes any list wait as long as it lasts: the request must give up with a 503
// instead of holding its connection. PostgreSQL only: the embedded database has no timer.
const LIMIT_MS = 300;
const REPORT_LIMIT_MS = 700;
let t: TestApp;
let alice: Account;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp({ API_STATEMENT_TIMEOUT_MS: String(LIMIT_MS), REPORT_STATEMENT_TIMEOUT_MS: String(REPORT_LIMIT_MS), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  alice = await createAccount(t);
  ({ campaigns: [{ id: campaignId }] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0 }] }));
});
afterAll(() => t?.close());

/** Runs `read` while another session holds `table` locked (a long migration, a stuck admin session). */
async function whileLocked<T>(table: 'contacts' | 'calls' | 'webhook_deliveries' | 'audit_events', read: () => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: t.database.databaseUrl });
  await admin.connect();
  try {
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return await read();
  } finally {
    await admin.query('ROLLBACK');
    await admin.end();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the requests pool on PostgreSQL', () => {
  it('stops a request waiting past API_STATEMENT_TIMEOUT_MS with a 503 and Retry-After, then serves it again', async () => {
    await whileLocked('contacts', async () => {
      const started = performance.now();
      const blocked = await t.request({ method: 'GET', url: '/api/v1/contacts/', headers: alice.headers });
      const waited = performance.now() - started;
      expect(blocked.statusCode).toBe(503);
      expect(blocked.headers['retry-after']).toBe('1');
      // The contacts list runs under its own timeout, which names the list and its filters (as the calls list).
      expect(blocked.json().detail).toMatch(new RegExp(`^The contacts list without filters took longer than ${LIMIT_MS} ms`));
      const filtered = await t.request({ method: 'GET', url: '/api/v1/contacts/?status=new', headers: alice.headers });
      expect(filtered.statusCode).toBe(503);
      expect(filtered.json().detail).toMatch(/The contacts list with the filters status took longer/);
      expect(waited).toBeGreaterThanOrEqual(LIMIT_MS - 20);
      expect(waited).toBeLessThan(5000);
      // What does not touch the locked table still answers meanwhile.
      expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: alice.headers })).statusCode).toBe(200);
    });
    const free = await t.request({ method: 'GET', url: '/api/v1/contacts/', headers: alice.headers });
    expect(free.statusCode).toBe(200);
    expect(free.json().data).toHaveLength(1);
  });

  it('stops the webhook deliveries and audit events lists with a 503 that names the list', async () => {
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/integrations/webhooks',
      headers: alice.headers,
      payload: { url: 'http://127.0.0.1:9/hook', request_schema: 'name - client name', campaign_ids: [campaignId] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    await whileLocked('webhook_deliveries', async () => {
      const blocked = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${hook.json().id}/deliveries?status=sent`, headers: alice.headers });
      expect(blocked.statusCode).toBe(503);
      expect(blocked.json().detail).toMatch(/^The webhook deliveries list with the filters status took longer/);
    });
    await whileLocked('audit_events', async () => {
      const blocked = await t.request({ method: 'GET', url: '/api/v1/audit-events/', headers: alice.headers });
      expect(blocked.statusCode).toBe(503);
      expect(blocked.json().detail).toMatch(/^The audit events list without filters took longer/);
    });
  });

  it('stops an analytics report at REPORT_STATEMENT_TIMEOUT_MS, its own limit, with the same 503', async () => {
    await whileLocked('calls', async () => {
      const started = performance.now();
      const report = await t.request({ method: 'GET', url: '/api/v1/analytics/detailed', headers: alice.headers });
      const waited = performance.now() - started;
      expect(report.statusCode, report.body).toBe(503);
      expect(report.json().detail).toMatch(/REPORT_STATEMENT_TIMEOUT_MS/);
      // Its own limit, not the API's shorter one.
      expect(waited).toBeGreaterThanOrEqual(REPORT_LIMIT_MS - 20);
      expect(waited).toBeLessThan(5000);
    });
    expect((await t.request({ method: 'GET', url: '/api/v1/analytics/detailed', headers: alice.headers })).statusCode).toBe(200);
  });

  it('leaves the background pool without the limit', async () => {
    await expect(sql`SELECT pg_sleep(${(LIMIT_MS * 2) / 1000})`.execute(t.deps.requestDb)).rejects.toMatchObject({ code: '57014' });
    await expect(sql`SELECT pg_sleep(${(LIMIT_MS * 2) / 1000})`.execute(t.deps.db)).resolves.toBeDefined();
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('the requests pool on the embedded database', () => {
  it('is the one pool (PGlite has no statement timer) and serves requests', async () => {
    // Why: PGlite runs a statement to its end whatever statement_timeout says. When this fails,
    // PGlite has learnt to stop statements and the embedded database can get a timed pool too.
    const slept = await t.deps.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL statement_timeout = 100`.execute(trx);
      return sql`SELECT pg_sleep(0.4)`.execute(trx);
    });
    expect(slept.rows).toHaveLength(1);
    expect(t.deps.requestDb).toBe(t.deps.db);
    expect((await t.request({ method: 'GET', url: '/api/v1/contacts/', headers: alice.headers })).statusCode).toBe(200);
  });
});
