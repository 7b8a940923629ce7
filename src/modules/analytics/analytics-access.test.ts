import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

/** Tenancy, inputs and defaults of the analytics endpoints. */
let t: TestApp;
let alice: Account;
let bob: Account;
let granted: number;
let ungranted: number;
let bobCampaign: number;
let subHeaders: Record<string, string>;
const aliceCalls: { campaign_id: number; cost: number; call_duration: number; status: string; action_status: string | null; start_time: Date }[] = [];
const HOUR = 3_600_000;

async function campaign(owner: Account, title: string) {
  return (await seed(t.deps.db, { campaigns: [{ owner, title }] })).campaigns[0].id;
}

async function addCalls(owner: Account, campaignId: number, count: number, now: number, into?: typeof aliceCalls) {
  const rows = Array.from({ length: count }, (_, i) => ({
    campaign_id: campaignId,
    status: i % 3 === 0 ? 'failed' : 'finished',
    action_status: i % 2 === 0 ? 'interested' : null,
    call_type: 'outbound',
    // Spread over the last three weeks, all inside the default one-month window.
    start_time: new Date(now - (i + 1) * 7 * HOUR),
    cost: (i % 7) + 0.25,
    call_duration: 10 * i,
  }));
  await seed(t.deps.db, {
    contacts: rows.map((_, i) => ({ campaign: { id: campaignId, owner_id: owner.id }, phone_number: `+4940${campaignId}${100 + i}`, status: 'finished' })),
    calls: rows.map((row, i) => ({ ...row, contact: i })),
  });
  into?.push(...rows);
}

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  granted = await campaign(alice, 'Granted');
  ungranted = await campaign(alice, 'Not granted');
  bobCampaign = await campaign(bob, 'Bob');
  const now = Date.now();
  await addCalls(alice, granted, 40, now, aliceCalls);
  await addCalls(alice, ungranted, 25, now, aliceCalls);
  await addCalls(bob, bobCampaign, 30, now);

  subHeaders = (await createSubUser(t, alice.id, [granted])).headers;
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = alice.headers) => t.request({ method: 'GET', url, headers });

const figures = (campaignIds: number[]) => {
  const list = aliceCalls.filter((c) => campaignIds.includes(c.campaign_id));
  return {
    calls: list.length,
    cost: list.reduce((a, c) => a + c.cost, 0),
    successful: list.filter((c) => c.status === 'finished' && c.action_status === 'interested').length,
  };
};

describe('analytics tenancy', () => {
  it('defaults to one month up to now over all of the caller\'s campaigns', async () => {
    const before = Date.now();
    const res = await get('/api/v1/analytics/detailed');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const end = Date.parse(body.period.end);
    expect(end).toBeGreaterThanOrEqual(before - 1000);
    expect(end).toBeLessThanOrEqual(Date.now());
    const start = new Date(body.period.start);
    // One calendar month back, clamped to the shorter month's last day (31 March -> 28 February).
    const endDate = new Date(end);
    const expectedStart = new Date(end);
    expectedStart.setUTCDate(1);
    expectedStart.setUTCMonth(expectedStart.getUTCMonth() - 1);
    const lastDay = new Date(Date.UTC(expectedStart.getUTCFullYear(), expectedStart.getUTCMonth() + 1, 0)).getUTCDate();
    expectedStart.setUTCDate(Math.min(endDate.getUTCDate(), lastDay));
    expect(start.getTime()).toBe(expectedStart.getTime());
    const all = figures([granted, ungranted]);
    expect(body.totals.calls).toBe(all.calls);
    expect(body.totals.total_cost).toBeCloseTo(all.cost, 6);
    expect(body.by_campaign.map((c: { campaign_id: number }) => c.campaign_id).sort()).toEqual([granted, ungranted].sort());
    const trend = (await get('/api/v1/analytics/trends')).json();
    expect(trend.granularity).toBe('day');
    expect(trend.total).toBe(all.calls);
  });

  it('shows a sub-user only the figures of the campaigns granted to it', async () => {
    const mine = figures([granted]);
    const body = (await get('/api/v1/analytics/detailed', subHeaders)).json();
    expect(body.totals.calls).toBe(mine.calls);
    expect(body.totals.successful).toBe(mine.successful);
    expect(body.totals.total_cost).toBeCloseTo(mine.cost, 6);
    expect(body.by_campaign.map((c: { campaign_id: number }) => c.campaign_id)).toEqual([granted]);
    const trend = (await get('/api/v1/analytics/trends?metric=cost', subHeaders)).json();
    expect(trend.total).toBeCloseTo(mine.cost, 6);
    expect((await get(`/api/v1/analytics/detailed?campaign_id=${ungranted}`, subHeaders)).statusCode).toBe(404);
    expect((await get(`/api/v1/analytics/trends?campaign_id=${ungranted}`, subHeaders)).statusCode).toBe(404);
    const one = (await get(`/api/v1/analytics/trends?campaign_id=${granted}&metric=successful`, subHeaders)).json();
    expect(one.total).toBe(mine.successful);
  });

  it('answers 404 for another account\'s campaign as for an unknown one, and 401 without credentials', async () => {
    for (const path of ['detailed', 'trends']) {
      const other = await get(`/api/v1/analytics/${path}?campaign_id=${bobCampaign}`);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ detail: 'Campaign not found' });
      expect((await get(`/api/v1/analytics/${path}?campaign_id=987654321`)).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: `/api/v1/analytics/${path}` })).statusCode).toBe(401);
    }
    const bobs = (await get('/api/v1/analytics/detailed', bob.headers)).json();
    expect(bobs.totals.calls).toBe(30);
  });
});

describe('analytics freshness', () => {
  it('reflects a call at once when the dialer inserts it and again when it ends', async () => {
    const carol = await createAccount(t);
    const id = await campaign(carol, 'Live');
    const { calls: [call] } = await seed(t.deps.db, {
      contacts: [{ campaign: { id, owner_id: carol.id }, phone_number: '+493012345678', status: 'in progress' }],
      calls: [{ contact: 0, status: 'in progress', call_type: 'outbound', start_time: new Date(Date.now() - 60_000) }],
    });
    const live = (await get('/api/v1/analytics/detailed', carol.headers)).json();
    expect(live.totals).toMatchObject({ calls: 1, answered: 0, successful: 0, total_cost: 0 });
    expect(live.by_status.find((s: { status: string }) => s.status === 'in progress').count).toBe(1);
    await t.deps.db.updateTable('calls').set({ status: 'finished', action_status: 'scheduled', call_duration: 42, cost: 0.37, end_time: new Date() }).where('id', '=', call.id).execute();
    const ended = (await get('/api/v1/analytics/detailed', carol.headers)).json();
    expect(ended.totals).toMatchObject({ calls: 1, answered: 1, finished: 1, successful: 1, total_duration: 42, total_cost: 0.37, success_rate: 1 });
    expect(ended.by_status.find((s: { status: string }) => s.status === 'in progress').count).toBe(0);
  });
});

describe('analytics inputs', () => {
  const expect422 = async (url: string, loc: (string | number)[]) => {
    const res = await get(url);
    expect(res.statusCode, url).toBe(422);
    expect(res.json().detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
  };

  it('rejects an unknown metric, call type, granularity or time zone with 422', async () => {
    await expect422('/api/v1/analytics/trends?metric=revenue', ['query', 'metric']);
    await expect422('/api/v1/analytics/trends?call_types=outbound&call_types=test', ['query', 'call_types', 1]);
    await expect422('/api/v1/analytics/detailed?call_types=sms', ['query', 'call_types', 0]);
    await expect422('/api/v1/analytics/trends?granularity=minute', ['query', 'granularity']);
    await expect422('/api/v1/analytics/detailed?timezone=Mars/Olympus', ['query', 'timezone']);
    await expect422('/api/v1/analytics/detailed?campaign_id=abc', ['query', 'campaign_id']);
    await expect422('/api/v1/analytics/detailed?compare_with_previous=maybe', ['query', 'compare_with_previous']);
  });

  it('rejects start_date after end_date, a malformed date and too many buckets with 422', async () => {
    await expect422('/api/v1/analytics/detailed?start_date=2026-02-01T00:00:00Z&end_date=2026-01-01T00:00:00Z', ['query', 'start_date']);
    await expect422('/api/v1/analytics/trends?start_date=2026-02-01T00:00:00Z&end_date=2026-01-01T00:00:00Z', ['query', 'start_date']);
    await expect422('/api/v1/analytics/trends?start_date=yesterday', ['query', 'start_date']);
    await expect422('/api/v1/analytics/trends?start_date=2024-01-01T00:00:00Z&end_date=2026-01-01T00:00:00Z&granularity=hour', ['query', 'granularity']); // 17,544 hours
    await expect422('/api/v1/analytics/trends?start_date=2000-01-01T00:00:00Z&end_date=2026-01-01T00:00:00Z', ['query', 'end_date']); // over 10 years
  });

  it('accepts none alone as a call type and answers an empty period with one zero bucket', async () => {
    const none = (await get('/api/v1/analytics/detailed?call_types=none')).json();
    expect(none.totals.calls).toBe(0);
    const at = '2026-01-01T10:30:00Z';
    const res = await get(`/api/v1/analytics/trends?start_date=${at}&end_date=${at}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ granularity: 'hour', total: 0, buckets: [{ start: '2026-01-01T10:00:00.000Z', end: '2026-01-01T11:00:00.000Z', value: 0 }] });
  });
});

describe('analytics documentation', () => {
  it('describes both operations, their inputs and the response shapes in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const detailed = doc.paths['/api/v1/analytics/detailed'].get;
    const trends = doc.paths['/api/v1/analytics/trends'].get;
    expect(detailed.tags).toEqual(['analytics']);
    expect(detailed.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['start_date', 'end_date', 'campaign_id', 'call_types', 'compare_with_previous', 'timezone']),
    );
    expect(trends.parameters.find((p: { name: string }) => p.name === 'metric').schema.enum).toEqual(['calls', 'cost', 'duration', 'successful']);
    expect(JSON.stringify(detailed.responses['200'])).toContain('unique_contacts');
    expect(JSON.stringify(trends.responses['200'])).toContain('buckets');
    expect(detailed.description).toContain('[start_date, end_date)');
  });
});
