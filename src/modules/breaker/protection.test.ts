import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

/** A campaign's circuit-breaker settings: GET/PUT /api/v1/campaigns/{id}/protection. */
let t: TestApp;
let alice: Account;
let bob: Account;
let sub: SubUser;
let campaign: number;
let other: number;

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t)];
  const s = await seed(t.deps.db, { campaigns: [{ owner: alice }, { owner: alice }] });
  [campaign, other] = [s.campaigns[0].id, s.campaigns[1].id];
  sub = await createSubUser(t, alice.id, [campaign]);
});
afterAll(() => t?.close());

const url = (id: number | string) => `/api/v1/campaigns/${id}/protection`;
const get = (id: number | string, headers: Record<string, string>) => t.request({ method: 'GET', url: url(id), headers });
const put = (id: number | string, headers: Record<string, string>, payload: object) => t.request({ method: 'PUT', url: url(id), headers, payload });
const DEFAULTS = { breaker_enabled: true, failure_rate_threshold: 0.5, window_seconds: 120, min_attempts: 5 };
const events = () => t.deps.db.selectFrom('audit_events').select(['details', 'actor_sub_user_id']).where('kind', '=', 'campaign.protection_changed')
  .where('subject_id', '=', campaign).orderBy('id').execute();

describe('campaign protection settings', () => {
  it('answers the defaults (50% over 120 s after 5 calls) for a campaign that never saved any', async () => {
    const res = await get(other, alice.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ campaign_id: other, ...DEFAULTS, updated_at: null });
  });

  it('changes the fields sent, keeps the others, reads back what it stored, and audits what changed', async () => {
    const res = await put(campaign, alice.headers, { failure_rate_threshold: 0.8, window_seconds: 300 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ campaign_id: campaign, ...DEFAULTS, failure_rate_threshold: 0.8, window_seconds: 300 });
    expect(res.json().updated_at).not.toBeNull();
    const second = await put(campaign, alice.headers, { min_attempts: 20, breaker_enabled: false });
    expect(second.json()).toMatchObject({ breaker_enabled: false, failure_rate_threshold: 0.8, window_seconds: 300, min_attempts: 20 });
    expect((await get(campaign, alice.headers)).json()).toEqual(second.json());
    // The same values again change nothing and write no event.
    await put(campaign, alice.headers, { min_attempts: 20 });
    const [first, last, ...more] = await events();
    expect(more).toEqual([]);
    expect(first!.details).toEqual({ changed: ['failure_rate_threshold', 'window_seconds'], from: { failure_rate_threshold: 0.5, window_seconds: 120 }, to: { failure_rate_threshold: 0.8, window_seconds: 300 } });
    expect(last!.details).toEqual({ changed: ['breaker_enabled', 'min_attempts'], from: { breaker_enabled: true, min_attempts: 5 }, to: { breaker_enabled: false, min_attempts: 20 } });
  });

  it('refuses out-of-range and mistyped values with 422 naming the field, and changes nothing', async () => {
    const before = (await get(campaign, alice.headers)).json();
    const cases: [object, string][] = [
      [{ failure_rate_threshold: 0 }, 'failure_rate_threshold'],
      [{ failure_rate_threshold: 1.5 }, 'failure_rate_threshold'],
      [{ failure_rate_threshold: 0.01 }, 'failure_rate_threshold'],
      [{ window_seconds: 29 }, 'window_seconds'],
      [{ window_seconds: 86401 }, 'window_seconds'],
      [{ window_seconds: 60.5 }, 'window_seconds'],
      [{ min_attempts: 0 }, 'min_attempts'],
      [{ min_attempts: 1001 }, 'min_attempts'],
      [{ breaker_enabled: 'yes' }, 'breaker_enabled'],
      [{ min_attempts: 10, window_seconds: -1 }, 'window_seconds'],
    ];
    for (const [body, field] of cases) {
      const res = await put(campaign, alice.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc.slice(0, 2), JSON.stringify(body)).toEqual(['body', field]);
    }
    expect((await get(campaign, alice.headers)).json()).toEqual(before);
  });

  it('lets a granted sub-user read them and tune them, but not switch the breaker (403 naming it)', async () => {
    expect((await get(campaign, sub.headers)).statusCode).toBe(200);
    const ok = await put(campaign, sub.headers, { window_seconds: 600, breaker_enabled: false });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ window_seconds: 600, breaker_enabled: false });
    const refused = await put(campaign, sub.headers, { breaker_enabled: true, window_seconds: 60 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('breaker_enabled');
    expect((await get(campaign, alice.headers)).json().window_seconds).toBe(600);
    expect((await events()).at(-1)!.actor_sub_user_id).toBe(sub.id);
    expect((await get(other, sub.headers)).statusCode).toBe(403);
    expect((await put(other, sub.headers, { window_seconds: 60 })).statusCode).toBe(403);
  });

  it('gives another account 403 and changes nothing; an unknown campaign is 404', async () => {
    const before = (await get(campaign, alice.headers)).json();
    expect((await get(campaign, bob.headers)).statusCode).toBe(403);
    expect((await put(campaign, bob.headers, { breaker_enabled: true })).statusCode).toBe(403);
    expect((await get(campaign, alice.headers)).json()).toEqual(before);
    expect((await get(999999999, alice.headers)).statusCode).toBe(404);
    expect((await put(999999999, alice.headers, { min_attempts: 3 })).statusCode).toBe(404);
  });

  it('stores nothing from undeclared fields: the row stays the campaign\'s and its owner\'s (test/mass-assignment.test.ts names this check)', async () => {
    const victim = (await seed(t.deps.db, { campaigns: [{ owner: bob }] })).campaigns[0];
    const planted = { campaign_id: victim.id, owner_id: bob.id, counted_since: '2001-01-01T00:00:00Z', updated_at: '2001-01-01T00:00:00Z', foo: 1 };
    const res = await put(other, alice.headers, { ...planted, min_attempts: 9 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('foo');
    const rows = await t.deps.db.selectFrom('campaign_protection').selectAll().where('campaign_id', 'in', [other, victim.id]).execute();
    expect(rows.map((r) => [Number(r.campaign_id), Number(r.owner_id), r.min_attempts, r.counted_since])).toEqual([[other, alice.id, 9, null]]);
    expect(rows[0]!.updated_at!.getFullYear()).toBeGreaterThan(2001);
  });
});
