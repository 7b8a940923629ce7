import { FIGURE_DIGITS } from '../src/modules/analytics/analytics.service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';

// Figures are answered rounded (money to the cent): compared within their last digit.
const DIGITS: Record<string, number> = FIGURE_DIGITS;

/**
 * Every figure is computed here in plain JS over the generated list and compared with the API.
 * Calls are generated with a seeded PRNG, around the end-of-March DST change in Europe/Berlin,
 * with extra calls exactly on period and bucket edges.
 */
const STATUSES = ['new', 'in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'];
const ACTIONS = [null, null, 'interested', 'scheduled', 'transferred'];
const TYPES = ['outbound', 'outbound', 'inbound', null];
const SUCCESS = new Set(['interested', 'scheduled', 'transferred']);

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface GenCall {
  campaign_id: number;
  contact_id: number;
  status: string;
  action_status: string | null;
  call_type: string | null;
  start_time: Date | null;
  cost: number | null;
  call_duration: number | null;
}

let t: TestApp;
let alice: Account;
let bob: Account;
const campaigns: { id: number; title: string }[] = [];
const calls: GenCall[] = [];
const SEED = Number(process.env.ANALYTICS_SEED ?? 20260329);
const EDGES = ['2026-03-01T00:00:00Z', '2026-03-28T23:00:00Z', '2026-03-29T00:00:00Z', '2026-03-29T01:00:00Z', '2026-03-29T22:00:00Z', '2026-03-30T00:00:00Z', '2026-04-01T00:00:00Z', '2026-04-10T00:00:00Z', '2026-03-28T23:59:59.999Z'];

async function seedAccount(owner: Account, count: number, rand: () => number, into: GenCall[] | null) {
  const { campaigns: rows, contacts } = await seed(t.deps.db, {
    campaigns: [0, 1, 2].map((c) => ({ owner, title: `Campaign ${c} of ${owner.id}` })),
    contacts: Array.from({ length: 60 }, (_, i) => ({ campaign: i % 3, phone_number: `+4930${owner.id}${1000 + i}`, status: 'new' })),
  });
  if (into) campaigns.push(...rows.map(({ id, title }) => ({ id, title })));
  const from = Date.parse('2026-03-01T00:00:00Z');
  const span = Date.parse('2026-04-10T00:00:00Z') - from;
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const generated: GenCall[] = [];
  // The dialer allows one live call per contact, so 'in progress' goes to a contact at most once.
  const live = new Set<number>();
  for (let i = 0; i < count; i++) {
    const contact = pick(contacts);
    const edge = i < EDGES.length * 3 ? new Date(EDGES[i % EDGES.length]!) : null;
    let status = pick(STATUSES);
    if (status === 'in progress' && live.has(contact.id)) status = 'finished';
    if (status === 'in progress') live.add(contact.id);
    generated.push({
      campaign_id: contact.campaign_id,
      contact_id: contact.id,
      status,
      action_status: pick(ACTIONS),
      call_type: pick(TYPES),
      start_time: edge ?? (rand() < 0.02 ? null : new Date(from + Math.floor(rand() * span))),
      cost: rand() < 0.1 ? null : Math.round(rand() * 500) / 100,
      call_duration: rand() < 0.1 ? null : rand() < 0.3 ? 0 : Math.floor(rand() * 600),
    });
  }
  await seed(t.deps.db, { calls: generated.map(({ contact_id, ...c }) => ({ ...c, contact: { id: contact_id, campaign_id: c.campaign_id, owner_id: owner.id } })) });
  into?.push(...generated);
}

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  const rand = prng(SEED);
  await seedAccount(alice, 1500, rand, calls);
  await seedAccount(bob, 300, rand, null);
});
afterAll(() => t?.close());

interface Filter {
  start: string;
  end: string;
  campaignId?: number;
  types?: string[];
}

function selected(f: Filter, list = calls) {
  const s = Date.parse(f.start);
  const e = Date.parse(f.end);
  return list.filter((c) => {
    if (!c.start_time || c.start_time.getTime() < s || c.start_time.getTime() >= e) return false;
    if (f.campaignId !== undefined && c.campaign_id !== f.campaignId) return false;
    if (f.types && !f.types.includes(c.call_type ?? 'none')) return false;
    return true;
  });
}

const isSuccess = (c: GenCall) => c.status === 'finished' && c.action_status !== null && SUCCESS.has(c.action_status);

function expectedTotals(list: GenCall[]) {
  const calls = list.length;
  const answered = list.filter((c) => (c.call_duration ?? 0) > 0).length;
  const successful = list.filter(isSuccess).length;
  const total_duration = list.reduce((a, c) => a + (c.call_duration ?? 0), 0);
  const total_cost = list.reduce((a, c) => a + (c.cost ?? 0), 0);
  return {
    calls,
    answered,
    finished: list.filter((c) => c.status === 'finished').length,
    successful,
    success_rate: calls ? successful / calls : null,
    total_duration,
    average_duration: answered ? total_duration / answered : null,
    total_cost,
    average_cost: calls ? total_cost / calls : null,
    unique_contacts: new Set(list.map((c) => c.contact_id)).size,
  };
}

function expectClose(actual: Record<string, number | null>, expected: Record<string, number | null>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [key, digits] of Object.entries(DIGITS)) {
    const v = actual[key];
    if (typeof v === 'number') expect(Math.round(v * 10 ** digits), `${key} has at most ${digits} decimals`).toBeCloseTo(v * 10 ** digits, 6);
  }
  for (const [key, value] of Object.entries(expected)) {
    if (value === null) expect(actual[key], key).toBeNull();
    else expect(actual[key], key).toBeCloseTo(value, DIGITS[key] ?? 6);
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, kind: 'hour' | 'full') {
  const key = `${timeZone} ${kind}`;
  if (!formatters.has(key)) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'hour' ? { timeZone, hour: '2-digit', hourCycle: 'h23' } : { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
    formatters.set(key, new Intl.DateTimeFormat(kind === 'hour' ? 'en-GB' : 'sv-SE', options));
  }
  return formatters.get(key)!;
}
const localHour = (d: Date, timeZone: string) => Number(formatter(timeZone, 'hour').format(d));
const localParts = (d: Date, timeZone: string) => formatter(timeZone, 'full').format(d);

function query(params: Record<string, string | string[] | number | boolean | undefined>) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
  }
  return search.toString();
}

async function detailed(params: Record<string, string | string[] | number | boolean | undefined>, headers = alice.headers) {
  const res = await t.request({ method: 'GET', url: `/api/v1/analytics/detailed?${query(params)}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function checkDetailed(body: any, f: Filter, timeZone: string) {
  const list = selected(f);
  expect(list.length).toBeGreaterThan(0);
  expectClose(body.totals, expectedTotals(list));
  const count = (pred: (c: GenCall) => boolean) => list.filter(pred).length;
  expect(body.by_status).toEqual(STATUSES.map((status) => ({ status, count: count((c) => c.status === status) })));
  expect(body.by_action_status).toEqual(['interested', 'scheduled', 'transferred', null].map((a) => ({ action_status: a, count: count((c) => c.action_status === a) })));
  expect(body.by_call_type).toEqual(['outbound', 'inbound', null].map((ct) => ({ call_type: ct, count: count((c) => c.call_type === ct) })));
  expect(body.by_hour).toEqual(
    Array.from({ length: 24 }, (_, hour) => ({
      hour,
      count: count((c) => localHour(c.start_time!, timeZone) === hour),
      successful: count((c) => isSuccess(c) && localHour(c.start_time!, timeZone) === hour),
    })),
  );
  const expectedCampaigns = campaigns
    .map((cp) => {
      const mine = list.filter((c) => c.campaign_id === cp.id);
      const tot = expectedTotals(mine);
      return { campaign_id: cp.id, campaign_title: cp.title, calls: tot.calls, successful: tot.successful, total_cost: tot.total_cost, total_duration: tot.total_duration };
    })
    .filter((c) => c.calls > 0)
    .sort((a, b) => b.calls - a.calls || a.campaign_id - b.campaign_id);
  expect(body.by_campaign.map((c: any) => ({ ...c, total_cost: Math.round(c.total_cost * 100) }))).toEqual(
    expectedCampaigns.map((c) => ({ ...c, total_cost: Math.round(c.total_cost * 100) })),
  );
}

describe('detailed analytics', () => {
  it('computes totals and every breakdown over the half-open period, ignoring other accounts', async () => {
    const f = { start: '2026-03-01T00:00:00Z', end: '2026-04-10T00:00:00Z' };
    const body = await detailed({ start_date: f.start, end_date: f.end });
    checkDetailed(body, f, 'UTC');
    expect(body.period).toEqual({ start: '2026-03-01T00:00:00.000Z', end: '2026-04-10T00:00:00.000Z', timezone: 'UTC' });
    expect(body).not.toHaveProperty('previous');
    expect(body).not.toHaveProperty('change');
  });

  it('counts a call starting exactly at start_date and not one starting exactly at end_date', async () => {
    const f = { start: '2026-03-29T00:00:00Z', end: '2026-03-29T22:00:00Z' };
    expect(selected(f).some((c) => c.start_time!.toISOString() === '2026-03-29T00:00:00.000Z')).toBe(true);
    expect(calls.some((c) => c.start_time?.toISOString() === '2026-03-29T22:00:00.000Z')).toBe(true);
    checkDetailed(await detailed({ start_date: f.start, end_date: f.end }), f, 'UTC');
  });

  it('takes hours of day in the requested zone across the DST change and filters by campaign and call types', async () => {
    const f = { start: '2026-03-20T00:00:00Z', end: '2026-04-05T00:00:00Z', campaignId: campaigns[1]!.id, types: ['inbound', 'none'] };
    const body = await detailed({ start_date: f.start, end_date: f.end, campaign_id: f.campaignId, call_types: f.types, timezone: 'Europe/Berlin' });
    checkDetailed(body, f, 'Europe/Berlin');
    expect(body.by_call_type.find((x: any) => x.call_type === 'outbound').count).toBe(0);
    // A range of over three years: offsets of many DST changes, some months read from the rollup, some days from the calls.
    const long = { ...f, start: '2023-01-01T00:00:00Z', end: '2026-04-10T00:00:00Z' };
    checkDetailed(await detailed({ start_date: long.start, end_date: long.end, campaign_id: f.campaignId, call_types: f.types, timezone: 'Europe/Berlin' }), long, 'Europe/Berlin');
    const comma = await detailed({ start_date: f.start, end_date: f.end, campaign_id: f.campaignId, call_types: 'inbound,none', timezone: 'Europe/Berlin' });
    expect(comma.totals).toEqual(body.totals);
  });

  it('compares with the preceding period of equal length, percent null where the previous value is 0', async () => {
    const f = { start: '2026-03-21T00:00:00Z', end: '2026-04-10T00:00:00Z', types: ['outbound'] };
    const prev = { start: '2026-03-01T00:00:00Z', end: '2026-03-21T00:00:00Z', types: ['outbound'] };
    const body = await detailed({ start_date: f.start, end_date: f.end, call_types: f.types, compare_with_previous: true });
    checkDetailed(body, f, 'UTC');
    expect(body.previous.period).toEqual({ start: '2026-03-01T00:00:00.000Z', end: '2026-03-21T00:00:00.000Z', timezone: 'UTC' });
    const cur = expectedTotals(selected(f));
    const old = expectedTotals(selected(prev));
    expectClose(body.previous.totals, old);
    for (const key of Object.keys(cur) as (keyof typeof cur)[]) {
      const c = cur[key];
      const p = old[key];
      expect(body.change[key].absolute, key).toBeCloseTo((c ?? 0) - (p ?? 0), 4);
      expect(body.change[key].percent, key).toBeCloseTo((((c ?? 0) - (p ?? 0)) / (p ?? 1)) * 100, 2);
    }

    const empty = await detailed({ start_date: '2026-03-01T00:00:00Z', end_date: '2026-03-05T00:00:00Z', compare_with_previous: true });
    expect(empty.previous.totals.calls).toBe(0);
    expect(empty.previous.totals.success_rate).toBeNull();
    expect(empty.change.calls).toEqual({ absolute: empty.totals.calls, percent: null });
    expect(empty.change.success_rate).toEqual({ absolute: null, percent: null });
  });

  it('answers zeros and nulls for a period without calls, with all 24 hours present', async () => {
    const body = await detailed({ start_date: '2025-01-01T00:00:00Z', end_date: '2025-01-02T00:00:00Z' });
    expect(body.totals).toEqual({ calls: 0, answered: 0, finished: 0, successful: 0, success_rate: null, total_duration: 0, average_duration: null, total_cost: 0, average_cost: null, unique_contacts: 0 });
    expect(body.by_hour).toHaveLength(24);
    expect(body.by_campaign).toEqual([]);
    expect(body.by_status.every((s: any) => s.count === 0)).toBe(true);
  });

  it('answers a historic period in a zone then on local mean time (an offset of fractional minutes)', async () => {
    const body = await detailed({ start_date: '1900-01-01T00:00:00Z', end_date: '1900-02-01T00:00:00Z', timezone: 'Africa/Blantyre' });
    expect(body.totals.calls).toBe(0);
    expect(body.by_hour).toHaveLength(24);
  });
});

async function trends(params: Record<string, string | string[] | number | boolean | undefined>) {
  const res = await t.request({ method: 'GET', url: `/api/v1/analytics/trends?${query(params)}`, headers: alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const METRIC_OF: Record<string, (list: GenCall[]) => number> = {
  calls: (l) => l.length,
  cost: (l) => l.reduce((a, c) => a + (c.cost ?? 0), 0),
  duration: (l) => l.reduce((a, c) => a + (c.call_duration ?? 0), 0),
  successful: (l) => l.filter(isSuccess).length,
};

function checkBuckets(body: any, f: Filter, metric: string, timeZone: string, granularity: string) {
  const buckets: { start: string; end: string; value: number }[] = body.buckets;
  expect(body).toMatchObject({ metric, granularity, timezone: timeZone });
  expect(Date.parse(buckets[0]!.start)).toBeLessThanOrEqual(Date.parse(f.start));
  expect(Date.parse(buckets[0]!.end)).toBeGreaterThan(Date.parse(f.start));
  expect(Date.parse(buckets.at(-1)!.start)).toBeLessThan(Date.parse(f.end));
  expect(Date.parse(buckets.at(-1)!.end)).toBeGreaterThanOrEqual(Date.parse(f.end));
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]!;
    if (i > 0) expect(b.start).toBe(buckets[i - 1]!.end);
    const local = localParts(new Date(b.start), timeZone);
    if (granularity === 'hour') expect(Date.parse(b.end) - Date.parse(b.start)).toBe(3_600_000);
    else expect(local.slice(11), b.start).toBe('00:00:00');
    if (granularity === 'month') expect(local.slice(8, 10)).toBe('01');
    const inBucket = selected({ ...f, start: new Date(Math.max(Date.parse(b.start), Date.parse(f.start))).toISOString(), end: new Date(Math.min(Date.parse(b.end), Date.parse(f.end))).toISOString() });
    expect(b.value, `${b.start} ${metric}`).toBeCloseTo(METRIC_OF[metric]!(inBucket), 2);
    expect(Math.round(b.value * 100), 'answered to the cent').toBeCloseTo(b.value * 100, 9);
  }
  expect(body.total).toBeCloseTo(METRIC_OF[metric]!(selected(f)), 2);
}

describe('trends', () => {
  it('gives every local day with zeros, a 23-hour day at the Berlin DST change, and the total', async () => {
    const f = { start: '2026-03-25T10:00:00Z', end: '2026-04-02T00:00:00Z' };
    for (const metric of ['calls', 'cost', 'duration', 'successful']) {
      const body = await trends({ start_date: f.start, end_date: f.end, metric, timezone: 'Europe/Berlin', granularity: 'day' });
      checkBuckets(body, f, metric, 'Europe/Berlin', 'day');
      const dstDay = body.buckets.find((b: any) => b.start === '2026-03-28T23:00:00.000Z');
      expect(Date.parse(dstDay.end) - Date.parse(dstDay.start)).toBe(23 * 3_600_000);
    }
  });

  it('defaults to the calls metric and to hourly buckets for two days, with empty hours as zeros', async () => {
    const f = { start: '2026-03-28T12:00:00Z', end: '2026-03-30T12:00:00Z', campaignId: campaigns[0]!.id };
    const body = await trends({ start_date: f.start, end_date: f.end, campaign_id: f.campaignId, timezone: 'Europe/Berlin' });
    checkBuckets(body, f, 'calls', 'Europe/Berlin', 'hour');
    expect(body.buckets).toHaveLength(48);
    expect(body.buckets.some((b: any) => b.value === 0)).toBe(true);
  });

  it('supports weeks starting on Monday and months, filtered by call type', async () => {
    const f = { start: '2026-03-01T00:00:00Z', end: '2026-04-10T00:00:00Z', types: ['outbound', 'none'] };
    const weeks = await trends({ start_date: f.start, end_date: f.end, call_types: f.types, metric: 'cost', granularity: 'week', timezone: 'Europe/Berlin' });
    checkBuckets(weeks, f, 'cost', 'Europe/Berlin', 'week');
    for (const b of weeks.buckets) expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short' }).format(new Date(b.start))).toBe('Mon');
    const months = await trends({ start_date: f.start, end_date: f.end, call_types: f.types, metric: 'successful', timezone: 'UTC' });
    checkBuckets(months, f, 'successful', 'UTC', 'day');
    const monthly = await trends({ start_date: f.start, end_date: f.end, metric: 'duration', granularity: 'month' });
    checkBuckets(monthly, { start: f.start, end: f.end }, 'duration', 'UTC', 'month');
    expect(monthly.buckets.map((b: any) => b.start)).toEqual(['2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
  });
});
