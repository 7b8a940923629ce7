import { sql, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import type { Principal } from '../auth/principal.ts';
import { matchingCalls } from './calls.repository.ts';
import { callDataMatches, prepareCallDataSearch } from './calls.search.ts';
import { seed } from '../../../test/helpers/seed.ts';

// With 100k calls of one account the planner picks the word index by itself for a rare word
// (Bitmap Index Scan on calls_search_words_idx, migration 0021). A table that
// size is too slow to build in a test, so by default the filter alone is explained with sequential
// and plain index scans disabled (a bitmap scan needs an index condition): that shows its
// expression matches the index, which no other expression could use. CALLS_SEARCH_ROWS=100000
// checks the planner's own choice for the full list queries.
const ROWS = Number(process.env.CALLS_SEARCH_ROWS ?? 2_000);
const forceIndex = ROWS < 100_000;
// The closing quote of the JSON string makes the reference unique (not R12340...).
const NEEDLE = 'R1234"';
let t: TestApp;
let alice: Account;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  const { contacts: [contact] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0 }] });
  // Realistic call data: a few distinct words per row, so a rare word is selective.
  await sql`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, call_data)
    SELECT ${alice.id}, ${contact.campaign_id}, ${contact.id}, 'finished',
           jsonb_build_object('summary', 'customer ' || md5(i::text), 'outcome', (ARRAY['interested', 'callback', 'no answer'])[1 + i % 3], 'ref', 'R' || i)
    FROM generate_series(1, ${ROWS}) AS i`.execute(t.deps.db);
  await sql`ANALYZE calls`.execute(t.deps.db);
});
afterAll(() => t?.close());

async function plan(query: Compilable) {
  const compiled = query.compile();
  return t.deps.db.transaction().execute(async (trx) => {
    if (forceIndex) {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
    }
    const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `EXPLAIN ${compiled.sql}` });
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe('the call_data search', () => {
  it(`can use the word index for the page and the count (${ROWS} calls)`, async () => {
    const principal: Principal = { kind: 'user', userId: alice.id, ownerId: alice.id, isSuperuser: false };
    const search = await prepareCallDataSearch(t.deps.db, NEEDLE);
    expect(search.words).toEqual(['r1234']);
    const where = forceIndex
      ? t.deps.db.selectFrom('calls').where(callDataMatches(search))
      : matchingCalls(t.deps.db, principal, { callData: search });
    const page = await plan(where.select('calls.id').orderBy('calls.id', 'desc').limit(20));
    const count = await plan(where.select((eb) => eb.fn.countAll().as('count')));
    expect(page).toContain('Bitmap Index Scan on calls_search_words_idx');
    expect(count).toContain('Bitmap Index Scan on calls_search_words_idx');
    const res = await t.request({ method: 'GET', url: `/api/v1/calls/?call_data=${encodeURIComponent(NEEDLE.toLowerCase())}`, headers: alice.headers });
    expect(res.json().count).toBe(1);
    expect(res.json().data[0].call_data.ref).toBe('R1234');
  });
});

describe('a search with a short word in it', () => {
  it('asks the index only for the longer words (a two-letter prefix expands to millions at scale) and still tests every word', async () => {
    const { contacts: [contact] } = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0 }] });
    const { calls: [mine] } = await seed(t.deps.db, {
      calls: [
        { contact: contact, call_data: { provider_call_id: 'pc-9f3ab27c41' } },
        { contact: contact, call_data: { provider_call_id: 'xpc-9f3ab27c41' } },
        { contact: contact, call_data: { note: 'pc 9f3ab27c41 apart' } },
      ],
    });
    const search = await prepareCallDataSearch(t.deps.db, 'pc-9f3ab27c41');
    expect(search.words).toContain('pc');
    const explained = await plan(t.deps.db.selectFrom('calls').where(callDataMatches(search)).select('calls.id'));
    const indexCondition = explained.split('\n').find((line) => line.includes('Index Cond'))!;
    // EXPLAIN doubles the quotes of the tsquery text: '''9f3ab27c41'':*'.
    expect(indexCondition).toMatch(/'9f3ab27c41''?:\*/);
    expect(indexCondition).not.toMatch(/'pc''?:\*/);
    const res = await t.request({ method: 'GET', url: `/api/v1/calls/?call_data=${encodeURIComponent('pc-9f3ab27c41')}`, headers: alice.headers });
    expect(res.json().data.map((c: { id: number }) => c.id)).toEqual([mine.id]);
  });
});
