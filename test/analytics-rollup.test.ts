import { FIGURE_DIGITS } from '../src/modules/analytics/analytics.service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { compactAnalytics } from '../src/modules/analytics/rollup-compaction.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed, type SeedCall } from './helpers/seed.ts';

// Figures are answered rounded (money to the cent): compared within their last digit.
const DIGITS: Record<string, number> = FIGURE_DIGITS;

/**
 * The precomputed rollup (migration 0006_analytics_speed) against the calls themselves: after
 * inserts, updates that move calls between days, campaigns and statuses, deletes, statuses
 * without a rollup column, compactions, partial days and dirty days inside compacted months,
 * every figure must equal a computation over the calls read back from the database.
 */
interface Call {
  id: number;
  campaign_id: number;
  contact_id: number;
  status: string;
  action_status: string | null;
  call_type: string | null;
  start_time: Date | null;
  cost: number | null;
  call_duration: number | null;
}

const STATUSES = ['finished', 'finished', 'failed', 'voicemail', 'busy_or_rejected', 'silence', 'new'];
const ACTIONS = [null, 'interested', 'scheduled', 'transferred', null];
const TYPES = ['outbound', 'outbound', 'inbound', null];
const SUCCESS = new Set(['interested', 'scheduled', 'transferred']);
const KNOWN_STATUSES = ['new', 'in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'];

let t: TestApp;
let owner: Account;
let campaignIds: number[] = [];
let contactIds: number[] = [];
let randomState = 7;
const rand = () => ((randomState = (randomState * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;

function randomCall(from: number, span: number) {
  const status = pick(STATUSES);
  return {
    owner_id: owner.id,
    campaign_id: pick(campaignIds),
    contact_id: pick(contactIds),
    status,
    action_status: status === 'finished' ? pick(ACTIONS) : null,
    call_type: pick(TYPES),
    start_time: rand() < 0.03 ? null : new Date(from + Math.floor(rand() * span)),
    cost: rand() < 0.1 ? null : Math.round(rand() * 300) / 100,
    call_duration: rand() < 0.1 ? null : Math.floor(rand() * 400),
  };
}

/** A call row as seed takes it; the contact need not be of the call's campaign (calls move between campaigns here). */
const asSeedCall = ({ contact_id, ...call }: Omit<SeedCall, 'contact'> & { owner_id: number; campaign_id: number; contact_id: number }): SeedCall =>
  ({ ...call, contact: { id: contact_id, campaign_id: call.campaign_id, owner_id: call.owner_id } });

async function insertCalls(count: number, from = Date.parse('2026-01-01T00:00:00Z'), span = 90 * 86_400_000) {
  await seed(t.deps.db, { calls: Array.from({ length: count }, () => asSeedCall(randomCall(from, span))) });
}

const callsInDb = async () =>
  (await t.deps.db.selectFrom('calls').select(['id', 'campaign_id', 'contact_id', 'status', 'action_status', 'call_type', 'start_time', 'cost', 'call_duration']).where('owner_id', '=', owner.id).execute()) as Call[];

const hourIn = (d: Date, timeZone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(d));
const isSuccess = (c: Call) => c.status === 'finished' && SUCCESS.has(c.action_status ?? '');
const sum = (list: Call[], f: (c: Call) => number) => list.reduce((a, c) => a + f(c), 0);
const countBy = <K>(list: Call[], key: (c: Call) => K, known: K[]) => {
  const counts = new Map<K, number>(known.map((k) => [k, 0]));
  for (const c of list) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  return counts;
};

function expectedTotals(list: Call[]) {
  const calls = list.length;
  const answered = list.filter((c) => (c.call_duration ?? 0) > 0).length;
  const successful = list.filter(isSuccess).length;
  const duration = sum(list, (c) => c.call_duration ?? 0);
  const cost = sum(list, (c) => c.cost ?? 0);
  return {
    calls, answered, successful, finished: list.filter((c) => c.status === 'finished').length,
    success_rate: calls ? successful / calls : null, total_duration: duration, average_duration: answered ? duration / answered : null,
    total_cost: cost, average_cost: calls ? cost / calls : null, unique_contacts: new Set(list.map((c) => c.contact_id)).size,
  };
}

function expectTotals(actual: Record<string, number | null>, expected: Record<string, number | null>, label: string) {
  for (const [key, value] of Object.entries(expected)) {
    if (value === null) expect(actual[key], `${label} ${key}`).toBeNull();
    else expect(actual[key], `${label} ${key}`).toBeCloseTo(value, DIGITS[key] ?? 6);
  }
}

async function get(path: string, params: Record<string, string>) {
  const res = await t.request({ method: 'GET', url: `/api/v1/analytics/${path}?${new URLSearchParams(params)}`, headers: owner.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** /detailed (with the previous period) and /trends by day against the calls in the database. */
async function check(start: string, end: string, timeZone = 'UTC', campaignId?: number) {
  const all = (await callsInDb()).filter((c) => campaignId === undefined || c.campaign_id === campaignId);
  const within = (s: number, e: number) => all.filter((c) => c.start_time && c.start_time.getTime() >= s && c.start_time.getTime() < e);
  const s = Date.parse(start);
  const e = Date.parse(end);
  const list = within(s, e);
  const label = `${start}..${end} ${timeZone} ${campaignId ?? 'all'}`;
  const scope = { start_date: start, end_date: end, timezone: timeZone, ...(campaignId ? { campaign_id: String(campaignId) } : {}) };
  const body = await get('detailed', { ...scope, compare_with_previous: 'true' });
  expectTotals(body.totals, expectedTotals(list), label);
  expectTotals(body.previous.totals, expectedTotals(within(2 * s - e, s)), `${label} previous`);
  expect(body.by_status, label).toEqual([...countBy(list, (c) => c.status, KNOWN_STATUSES)].map(([status, count]) => ({ status, count })));
  expect(body.by_action_status, label).toEqual([...countBy(list, (c) => c.action_status, ['interested', 'scheduled', 'transferred', null])].map(([action_status, count]) => ({ action_status, count })));
  expect(body.by_call_type, label).toEqual([...countBy(list, (c) => c.call_type, ['outbound', 'inbound', null])].map(([call_type, count]) => ({ call_type, count })));
  const hours = Array.from({ length: 24 }, (_, hour) => list.filter((c) => hourIn(c.start_time!, timeZone) === hour));
  expect(body.by_hour, label).toEqual(hours.map((h, hour) => ({ hour, count: h.length, successful: h.filter(isSuccess).length })));
  const byCampaign = [...new Set(list.map((c) => c.campaign_id))].map((id) => {
    const mine = list.filter((c) => c.campaign_id === id);
    return { campaign_id: id, calls: mine.length, successful: mine.filter(isSuccess).length, total_duration: sum(mine, (c) => c.call_duration ?? 0), total_cost: Math.round(sum(mine, (c) => c.cost ?? 0) * 100) };
  });
  expect(body.by_campaign.map((c: any) => ({ campaign_id: c.campaign_id, calls: c.calls, successful: c.successful, total_duration: c.total_duration, total_cost: Math.round(c.total_cost * 100) })), label).toEqual(
    byCampaign.sort((a, b) => b.calls - a.calls || a.campaign_id - b.campaign_id),
  );
  for (const metric of ['cost', 'successful']) {
    const trend = await get('trends', { ...scope, metric, granularity: 'day' });
    for (const b of trend.buckets) {
      const inBucket = within(Math.max(Date.parse(b.start), s), Math.min(Date.parse(b.end), e));
      expect(b.value, `${label} ${metric} ${b.start}`).toBeCloseTo(metric === 'cost' ? sum(inBucket, (c) => c.cost ?? 0) : inBucket.filter(isSuccess).length, 6);
    }
  }
}

const dirtyDays = async () => Number((await t.deps.database.pool.query('SELECT count(*) AS n FROM analytics_dirty WHERE owner_id = $1', [owner.id])).rows[0].n);
const rollupRows = async () => Number((await t.deps.database.pool.query('SELECT count(*) AS n FROM analytics_rollup WHERE owner_id = $1', [owner.id])).rows[0].n);

async function campaignsAndContacts(who: Account) {
  const { campaigns, contacts } = await seed(t.deps.db, {
    campaigns: [0, 1, 2].map((i) => ({ owner: who, title: `R${i}` })),
    contacts: Array.from({ length: 40 }, (_, i) => ({ campaign: i % 3, phone_number: `+4930${who.id}${1000 + i}`, status: 'new' })),
  });
  return { campaigns: campaigns.map((c) => c.id), contacts: contacts.map((c) => c.id) };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  const other = await createAccount(t);
  const theirs = await campaignsAndContacts(other);
  ({ campaigns: campaignIds, contacts: contactIds } = await campaignsAndContacts(owner));
  await insertCalls(700);
  // Another account's calls on the same days must never show.
  await seed(t.deps.db, {
    calls: theirs.contacts.map((id, i) => asSeedCall({ owner_id: other.id, campaign_id: theirs.campaigns[i % 3]!, contact_id: id, status: 'finished', start_time: new Date(Date.parse('2026-02-01T00:00:00Z') + i * 3_600_000), cost: 9 })),
  });
});
afterAll(() => t?.close());

describe('analytics rollup', () => {
  it('folds the backlog at the first report and matches the calls over whole months, days and partial days', async () => {
    expect(await dirtyDays()).toBeGreaterThan(2);
    await check('2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z');
    expect(await dirtyDays()).toBe(0);
    expect(await rollupRows()).toBeGreaterThan(0);
    await check('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z');
    await check('2026-01-10T13:45:00Z', '2026-03-02T07:00:00Z');
    await check('2026-02-03T01:00:00Z', '2026-02-03T05:00:00Z');
    await check('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z', 'UTC', campaignIds[1]);
  });

  it('stays exact when calls are updated, moved between days and campaigns, and deleted, before and after compaction', async () => {
    const calls = (await callsInDb()).filter((c) => c.start_time);
    const db = t.deps.db;
    await db.updateTable('calls').set({ status: 'finished', action_status: 'scheduled', cost: 1.25 }).where('id', 'in', calls.slice(0, 30).map((c) => c.id)).execute();
    await db.updateTable('calls').set({ start_time: new Date('2026-03-15T10:30:00Z') }).where('id', 'in', calls.slice(30, 40).map((c) => c.id)).execute();
    await db.updateTable('calls').set({ campaign_id: campaignIds[2]! }).where('id', 'in', calls.slice(40, 50).map((c) => c.id)).execute();
    await db.updateTable('calls').set({ start_time: null }).where('id', 'in', calls.slice(50, 55).map((c) => c.id)).execute();
    await db.deleteFrom('calls').where('id', 'in', calls.slice(55, 70).map((c) => c.id)).execute();
    await insertCalls(20, Date.parse('2026-02-10T00:00:00Z'), 86_400_000);
    // Too many dirty days for a report to read them raw: the next report folds them first.
    await check('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z');
    await check('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', 'UTC', campaignIds[2]);
    expect(await dirtyDays()).toBe(0);
  });

  it('reads a dirty day inside a compacted month from the calls', async () => {
    const march = (await callsInDb()).filter((c) => c.start_time && c.start_time.toISOString().startsWith('2026-03-15'));
    await t.deps.db.updateTable('calls').set({ status: 'failed', call_duration: 0 }).where('id', '=', march[0]!.id).execute();
    await insertCalls(3, Date.parse('2026-03-15T00:00:00Z'), 86_400_000);
    expect(await dirtyDays()).toBeGreaterThan(0);
    await check('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z');
    // Whole days of one campaign: first read from its rollup rows alone, which see the dirty day and defer to the calls.
    await check('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', 'UTC', march[0]!.campaign_id);
    await check('2026-02-14T12:00:00Z', '2026-03-16T12:00:00Z');
  });

  it('takes hours of day from the rollup across a DST change, and from the calls in a zone off whole hours', async () => {
    await compactAnalytics(t.deps.db);
    await check('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', 'Europe/Berlin');
    await check('2026-01-01T00:00:00Z', '2026-04-01T00:00:00Z', 'America/New_York');
    await check('2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', 'Asia/Kolkata');
  });

  it('names a status and an action status the rollup has no column for', async () => {
    await seed(t.deps.db, { calls: [asSeedCall({ owner_id: owner.id, campaign_id: campaignIds[0]!, contact_id: contactIds[0]!, status: 'escalated', action_status: 'callback', start_time: new Date('2026-01-20T10:00:00Z') })] });
    await compactAnalytics(t.deps.db);
    const body = await get('detailed', { start_date: '2026-01-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' });
    expect(body.by_status.at(-1)).toEqual({ status: 'escalated', count: 1 });
    expect(body.by_action_status.at(-1)).toEqual({ action_status: 'callback', count: 1 });
    await t.deps.db.deleteFrom('calls').where('status', '=', 'escalated').execute();
  });

  it('keeps today read from the calls, its marks collapsed into one instead of folded', async () => {
    const now = Date.now();
    // Calls of today (UTC) before now, whatever the time of day the test runs at (just after
    // midnight, an hour ago was yesterday, a day the compaction folds).
    const dayStart = now - (now % 86_400_000);
    const sinceMidnight = now - dayStart;
    await compactAnalytics(t.deps.db);
    await insertCalls(5, dayStart, sinceMidnight / 2);
    await insertCalls(5, dayStart + sinceMidnight / 2, sinceMidnight / 2);
    expect(await compactAnalytics(t.deps.db)).toBe(0);
    const today = new Date(now).toISOString().slice(0, 10);
    const marks = await t.deps.database.pool.query('SELECT day::text AS day FROM analytics_dirty WHERE owner_id = $1', [owner.id]);
    expect(marks.rows).toEqual([{ day: today }]);
    const rows = await t.deps.database.pool.query("SELECT count(*)::int AS n FROM analytics_rollup WHERE owner_id = $1 AND period = $2::date AND grain = 'd'", [owner.id, today]);
    expect(rows.rows[0].n).toBe(0);
    await check(new Date(now - 3 * 86_400_000).toISOString(), new Date(now + 60_000).toISOString());
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('keeps the mark of a transaction that commits after a compaction began', async () => {
    const client = new pg.Client({ connectionString: t.database.databaseUrl });
    await client.connect();
    try {
      await compactAnalytics(t.deps.db);
      await client.query('BEGIN');
      await client.query(`INSERT INTO calls (owner_id, campaign_id, contact_id, status, start_time, cost) VALUES ($1, $2, $3, 'finished', '2026-02-20T10:00:00Z', 5)`, [owner.id, campaignIds[0], contactIds[0]]);
      expect(await compactAnalytics(t.deps.db)).toBe(0);
      await client.query('COMMIT');
      const mark = await t.deps.database.pool.query("SELECT count(*)::int AS n FROM analytics_dirty WHERE owner_id = $1 AND day = '2026-02-20'", [owner.id]);
      expect(mark.rows[0].n).toBe(1);
      await check('2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z');
    } finally {
      await client.end();
    }
  });

  it('empties the rollup when the calls are truncated', async () => {
    await t.deps.database.pool.query('TRUNCATE calls CASCADE');
    expect(await rollupRows()).toBe(0);
    const body = await get('detailed', { start_date: '2026-01-01T00:00:00Z', end_date: '2026-04-01T00:00:00Z' });
    expect(body.totals.calls).toBe(0);
  });
});
