import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, createSubUser, type Account, type SubUser } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';

/**
 * A filter value never tells whether an id exists elsewhere: every list and report that filters
 * by an id answers another account's id (or, for a sub-user, a campaign of its owner not granted
 * to it) exactly as an id that names nothing, status and body alike. Fetching an object by its
 * path id is another rule (403 for another account's object, docs/api-conventions.md).
 */
let t: TestApp;
let alice: Account;
let bob: Account;
let sub: SubUser;
let ids: { bobCampaign: number; bobContact: number; bobCall: number; aliceUngranted: number; bobSubUser: number };
const UNKNOWN = 987_654_321;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  const { campaigns: [granted, ungranted, bobCampaign] } = await seed(t.deps.db, {
    campaigns: [{ owner: alice, title: 'Granted' }, { owner: alice, title: 'Not granted' }, { owner: bob, title: 'Bob' }],
  });
  const { contacts: [, bobContact], calls: [, bobCall] } = await seed(t.deps.db, {
    contacts: [{ campaign: granted }, { campaign: bobCampaign }],
    calls: [{ contact: 0, start_time: new Date() }, { contact: 1, start_time: new Date() }],
  });
  const { subUsers: [bobSub] } = await seed(t.deps.db, { subUsers: [{ owner: bob }] });
  sub = await createSubUser(t, alice.id, [granted.id]);
  ids = { bobCampaign: bobCampaign.id, bobContact: bobContact.id, bobCall: bobCall.id, aliceUngranted: ungranted.id, bobSubUser: bobSub.id };
});
afterAll(() => t?.close());

/** Each filter of a list or report, with the id of someone else's object it is tried with. */
const filters = () => [
  ['/api/v1/analytics/detailed?campaign_id=', ids.bobCampaign],
  ['/api/v1/analytics/detailed?compare_with_previous=true&campaign_id=', ids.bobCampaign],
  ['/api/v1/analytics/trends?campaign_id=', ids.bobCampaign],
  ['/api/v1/calls/?campaign_id=', ids.bobCampaign],
  ['/api/v1/calls/?contact_id=', ids.bobContact],
  ['/api/v1/calls/?call_id=', ids.bobCall],
  ['/api/v1/contacts/?campaign_id=', ids.bobCampaign],
  ['/api/v1/campaigns/?id=', ids.bobCampaign],
  ['/api/v1/campaigns/?sub_user_id=', ids.bobSubUser],
  ['/api/v1/phone-numbers/?campaign_id=', ids.bobCampaign],
] as const;

// The analytics reports name their period; both requests of a pair get the same one.
const PERIOD = '&start_date=2026-01-01T00:00:00Z&end_date=2026-02-01T00:00:00Z';
const get = (url: string, headers: Record<string, string>) => t.request({ method: 'GET', url: url.includes('analytics') ? url + PERIOD : url, headers });

describe('filters by id', () => {
  it('answer another account\'s id exactly as an unknown one, on every list and report', async () => {
    const differences: string[] = [];
    for (const [url, theirs] of filters()) {
      const [other, unknown] = [await get(`${url}${theirs}`, alice.headers), await get(`${url}${UNKNOWN}`, alice.headers)];
      expect(other.statusCode, url).toBeLessThan(500);
      if (other.statusCode !== unknown.statusCode || other.body !== unknown.body) {
        differences.push(`${url}: ${other.statusCode} ${other.body.slice(0, 80)} / unknown ${unknown.statusCode} ${unknown.body.slice(0, 80)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('answer a sub-user\'s filter on an ungranted campaign of its owner exactly as an unknown one', async () => {
    for (const path of ['detailed', 'trends']) {
      const url = `/api/v1/analytics/${path}?campaign_id=`;
      const [ungranted, unknown] = [await get(`${url}${ids.aliceUngranted}`, sub.headers), await get(`${url}${UNKNOWN}`, sub.headers)];
      expect({ status: ungranted.statusCode, body: ungranted.json() }).toEqual({ status: unknown.statusCode, body: unknown.json() });
      expect(unknown.statusCode).toBe(404);
    }
  });

  it('still tells the caller\'s own campaign apart: its figures, not a 404', async () => {
    const own = await get(`/api/v1/analytics/detailed?campaign_id=${ids.aliceUngranted}`, alice.headers);
    expect(own.statusCode).toBe(200);
  });
});
