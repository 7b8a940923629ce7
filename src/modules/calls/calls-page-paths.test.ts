import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { fewerThanTheWalk, sortsTheMatches } from './calls.service.ts';

/**
 * The calls page reads its ids one of two ways (calls.repository.ts callsPage): walking the
 * newest calls until enough match, or collecting the matches and sorting them. The second is
 * chosen for an exact small count and, since issue 31's 2M-call run, for an estimated count small
 * enough that sorting beats walking (a day in March: 1.35 s walking). Both must give the same page.
 */
const CALLS = 3000;
const BASE = Date.parse('2030-03-01T00:00:00Z');
let t: TestApp;
let alice: Account;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  const { contacts: [contact] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0 }] });
  await sql`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, start_time, call_data)
    SELECT ${alice.id}, ${contact.campaign_id}, ${contact.id}, 'finished', ${new Date(BASE)}::timestamptz + make_interval(mins => i), '{}'::jsonb
    FROM generate_series(1, ${CALLS}) AS i`.execute(t.deps.db);
  await sql`ANALYZE calls`.execute(t.deps.db);
});
afterAll(() => t?.close());

describe('choosing how to read a page', () => {
  it('sorts the matches when they are few against the walk (the figures of the 2M-call run)', () => {
    expect(fewerThanTheWalk(5475, 20, 2_000_000)).toBe(true); // a day in March
    expect(fewerThanTheWalk(666_864, 20, 2_000_000)).toBe(false); // a word in a third of the calls
    expect(fewerThanTheWalk(9999, 20, 2_000_000)).toBe(false); // a rare word: the walk stops soon enough
    // A time range is one run of calls, not spread: at 10M calls a day in March (27,400 matches) failed
    // the walk rule and was walked to the statement timeout (3 s, 503). It is sorted wherever it lies.
    expect(fewerThanTheWalk(27_400, 20, 10_000_000)).toBe(false);
    expect(sortsTheMatches({ count: 27_400, exact: false }, true)).toBe(true);
    expect(sortsTheMatches({ count: 27_400, exact: false }, false)).toBe(false);
    expect(sortsTheMatches({ count: 5_000_000, exact: false }, true)).toBe(false); // half the account: the walk finds them
    expect(sortsTheMatches({ count: 800, exact: true }, false)).toBe(true);
  });

  it('answers an estimated time range read by sorting its matches exactly as the rows say, page after page', async () => {
    const from = new Date(BASE + 1000 * 60_000).toISOString();
    const to = new Date(BASE + 2599 * 60_000).toISOString();
    const expected = (await t.deps.db.selectFrom('calls').select('id').where('owner_id', '=', alice.id)
      .where('start_time', '>=', new Date(from)).where('start_time', '<=', new Date(to)).orderBy('id', 'desc').execute()).map((r) => r.id);
    expect(expected).toHaveLength(1600);
    const page = (skip: number) => t.request({ method: 'GET', url: `/api/v1/calls/?start_time_from=${from}&start_time_to=${to}&limit=1000&skip=${skip}`, headers: alice.headers });
    const first = (await page(0)).json();
    expect(first.count_exact).toBe(false);
    expect(fewerThanTheWalk(first.count, 1000, CALLS)).toBe(true);
    const second = (await page(1000)).json();
    expect([...first.data, ...second.data].map((c: { id: number }) => c.id)).toEqual(expected);
  });

  it('merges one walk per status for several statuses, page after page and with after_id, as the rows say', async () => {
    // Statuses clustered in time, as a status common last year and rare now: the walks must merge by id.
    await sql`UPDATE calls SET status = CASE WHEN id % 7 = 0 AND start_time < ${new Date(BASE + 1500 * 60_000)}::timestamptz THEN 'voicemail'
                                         WHEN id % 11 = 0 THEN 'busy_or_rejected' ELSE 'finished' END WHERE owner_id = ${alice.id}`.execute(t.deps.db);
    const expected = (await t.deps.db.selectFrom('calls').select('id').where('owner_id', '=', alice.id)
      .where('status', 'in', ['voicemail', 'busy_or_rejected']).orderBy('id', 'desc').execute()).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(400);
    const get = async (query: string) => (await t.request({ method: 'GET', url: `/api/v1/calls/?status=voicemail&status=busy_or_rejected&${query}`, headers: alice.headers })).json();
    const pages = [await get('limit=100&skip=0'), await get('limit=100&skip=100'), await get('limit=100&skip=200')];
    expect(pages[0].count).toBe(expected.length);
    expect(pages.flatMap((p) => p.data.map((c: { id: number }) => c.id))).toEqual(expected.slice(0, 300));
    const after = await get(`limit=50&after_id=${expected[120]}`);
    expect(after.data.map((c: { id: number }) => c.id)).toEqual(expected.slice(121, 171));
    // One status alone reads its own index, newest first.
    const voicemail = (await t.request({ method: 'GET', url: '/api/v1/calls/?status=voicemail&limit=20', headers: alice.headers })).json();
    expect(voicemail.data.map((c: { id: number }) => c.id)).toEqual((await t.deps.db.selectFrom('calls').select('id').where('owner_id', '=', alice.id)
      .where('status', '=', 'voicemail').orderBy('id', 'desc').limit(20).execute()).map((r) => r.id));
  });
});
