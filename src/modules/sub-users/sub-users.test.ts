import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, bearer, createAccount, login, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = await appWithAccounts()));
afterAll(() => t?.close());

const unique = (prefix = 'sub') => `${prefix}.${randomUUID().slice(0, 8)}`;
const PASSWORD = 'sub-user password';

async function createSubUser(owner: Account, body: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: owner.headers, payload: { username: unique(), password: PASSWORD, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; username: string; email: string | null; full_name: string | null; is_active: boolean; campaign_ids: number[] };
}

// Campaigns belong to another module; seeding the rows keeps this file independent of its progress.
async function createCampaign(owner: Account, title = unique('campaign')) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner, title }] });
  return { id: campaign.id, title: campaign.title };
}

const grants = async (owner: Account, id: number) => (await t.request({ method: 'GET', url: `/api/v1/sub-users/${id}/campaigns`, headers: owner.headers })).json();

describe('creating sub-users', () => {
  it('answers the sub-user without any password and stores an argon2 hash', async () => {
    const email = `${unique('mail')}@example.com`;
    const res = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload: { username: 'Agent.Smith-1', full_name: 'Agent Smith', email, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['campaign_ids', 'created_at', 'email', 'full_name', 'id', 'is_active', 'username']);
    expect(body).toMatchObject({ username: 'Agent.Smith-1', full_name: 'Agent Smith', email, is_active: true, campaign_ids: [] });
    expect(Number.isNaN(Date.parse(body.created_at))).toBe(false);
    expect(res.body).not.toContain('argon2');
    const row = await t.deps.db.selectFrom('sub_users').select(['hashed_password', 'owner_id']).where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(alice.id);
    expect(row.hashed_password).toMatch(/^\$argon2id\$/);
    expect(row.hashed_password).not.toContain(PASSWORD);
  });

  it('accepts a sub-user without e-mail or full name', async () => {
    const sub = await createSubUser(alice);
    expect(sub.email).toBeNull();
    expect(sub.full_name).toBeNull();
  });

  it('rejects a malformed username, e-mail or password with 422 naming each field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'ab', password: PASSWORD }, 'body.username'],
      [{ username: 'x'.repeat(65), password: PASSWORD }, 'body.username'],
      [{ username: 'has space', password: PASSWORD }, 'body.username'],
      [{ username: 'semi;colon', password: PASSWORD }, 'body.username'],
      [{ username: unique(), password: 'short' }, 'body.password'],
      [{ username: unique(), password: 'p'.repeat(129) }, 'body.password'],
      [{ username: unique(), password: PASSWORD, email: 'not-an-email' }, 'body.email'],
      [{ password: PASSWORD }, 'body.username'],
      [{ username: unique() }, 'body.password'],
    ];
    for (const [payload, loc] of cases) {
      const res = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))).toContain(loc);
    }
    const boundary = await createSubUser(alice, { username: `a${'b'.repeat(63)}`, password: 'p'.repeat(8) });
    expect(boundary.username).toHaveLength(64);
  });

  it('refuses with 409 a username or e-mail that already identifies someone at login, whatever the case', async () => {
    const taken = await createSubUser(bob, { username: unique('Taken'), email: `${unique('taken')}@example.com` });
    const clashes = [
      { username: taken.username.toUpperCase() }, // another account's sub-user: usernames are service-wide
      { username: unique(), email: taken.email!.toUpperCase() },
      { username: alice.email }, // an account e-mail, which login would try first
      { username: unique(), email: bob.email.toUpperCase() },
      { username: taken.email! }, // another sub-user's e-mail
    ];
    for (const body of clashes) {
      const res = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload: { password: PASSWORD, ...body } });
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(typeof res.json().detail).toBe('string');
    }
    const count = await t.deps.db.selectFrom('sub_users').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', alice.id).where('username', '=', alice.email).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('lets only one of two simultaneous creates with the same username succeed', async () => {
    const username = unique('race');
    const results = await Promise.all(
      [alice, bob].map((owner) => t.request({ method: 'POST', url: '/api/v1/sub-users', headers: owner.headers, payload: { username: owner === alice ? username : username.toUpperCase(), password: PASSWORD } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const rows = await t.deps.db.selectFrom('sub_users').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase())).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses an e-mail equal to another sub-user\'s username', async () => {
    const name = `${unique('name')}@example.com`;
    await createSubUser(bob, { username: name });
    const res = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload: { username: unique(), email: name.toUpperCase(), password: PASSWORD } });
    expect(res.statusCode).toBe(409);
  });
});

describe('reading, listing, updating and deleting', () => {
  it('lists only the caller\'s sub-users, newest first, with the total count and skip/limit', async () => {
    const owner = await createAccount(t);
    const made = [await createSubUser(owner), await createSubUser(owner), await createSubUser(owner)];
    await createSubUser(bob);
    const all = await t.request({ method: 'GET', url: '/api/v1/sub-users', headers: owner.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(3);
    expect(all.json().data.map((s: { id: number }) => s.id)).toEqual(made.map((s) => s.id).reverse());
    const page = await t.request({ method: 'GET', url: '/api/v1/sub-users?skip=1&limit=1', headers: owner.headers });
    expect(page.json()).toMatchObject({ count: 3, data: [{ id: made[1]!.id }] });
    for (const query of ['limit=0', 'limit=1001', 'skip=-1']) {
      const bad = await t.request({ method: 'GET', url: `/api/v1/sub-users?${query}`, headers: owner.headers });
      expect(bad.statusCode, query).toBe(422);
    }
  });

  it('reads one sub-user with its granted campaign ids', async () => {
    const sub = await createSubUser(alice);
    const [c1, c2] = [await createCampaign(alice), await createCampaign(alice)];
    await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [c2.id, c1.id] } });
    const res = await t.request({ method: 'GET', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sub.id, username: sub.username, campaign_ids: [c1.id, c2.id] });
    const listed = await t.request({ method: 'GET', url: '/api/v1/sub-users?limit=1000', headers: alice.headers });
    expect(listed.json().data.find((s: { id: number }) => s.id === sub.id).campaign_ids).toEqual([c1.id, c2.id]);
  });

  it('updates full name, e-mail, password and active flag but never the username', async () => {
    const sub = await createSubUser(alice, { full_name: 'Before' });
    const email = `${unique('after')}@example.com`;
    const res = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { full_name: 'After', email, password: 'a brand new password', username: 'ignored-name' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ full_name: 'After', email, username: sub.username, is_active: true });
    await expect(login(t, sub.username, PASSWORD)).rejects.toThrow(/400/);
    expect(await login(t, email, 'a brand new password')).toBeTruthy();

    const cleared = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { email: null, full_name: null } });
    expect(cleared.json()).toMatchObject({ email: null, full_name: null });
    const unchanged = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: {} });
    expect(unchanged.json()).toMatchObject({ id: sub.id, email: null, is_active: true });
  });

  it('answers 409 when an update takes an e-mail already in use, and 422 for a malformed one', async () => {
    const sub = await createSubUser(alice, { email: `${unique('own')}@example.com` });
    const other = await createSubUser(bob, { email: `${unique('other')}@example.com` });
    for (const email of [other.email!.toUpperCase(), bob.email.toUpperCase()]) {
      const res = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { email } });
      expect(res.statusCode, email).toBe(409);
    }
    const malformed = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { email: other.username } });
    expect(malformed.statusCode).toBe(422);
    const kept = await t.request({ method: 'GET', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers });
    expect(kept.json().email).toBe(sub.email);
    const same = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { email: sub.email!.toUpperCase() } });
    expect(same.statusCode).toBe(200);
    const short = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { password: 'short' } });
    expect(short.statusCode).toBe(422);
  });

  it('answers 403 for another account\'s sub-user and 404 for an unknown id on read, update and delete', async () => {
    const bobs = await createSubUser(bob);
    for (const [method, payload] of [['GET', undefined], ['PUT', { full_name: 'hijack' }], ['DELETE', undefined]] as const) {
      const other = await t.request({ method, url: `/api/v1/sub-users/${bobs.id}`, headers: alice.headers, ...(payload ? { payload } : {}) });
      expect(other.statusCode, method).toBe(403);
      expect(other.json()).toEqual({ detail: 'Not enough permissions' });
      const unknown = await t.request({ method, url: '/api/v1/sub-users/987654321', headers: alice.headers, ...(payload ? { payload } : {}) });
      expect(unknown.statusCode, method).toBe(404);
    }
    const still = await t.request({ method: 'GET', url: `/api/v1/sub-users/${bobs.id}`, headers: bob.headers });
    expect(still.json().full_name).toBeNull();
  });

  it('deletes a sub-user and its grants', async () => {
    const sub = await createSubUser(alice);
    const campaign = await createCampaign(alice);
    await t.request({ method: 'POST', url: `/api/v1/sub-users/${sub.id}/campaigns/${campaign.id}`, headers: alice.headers });
    const res = await t.request({ method: 'DELETE', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Sub-user deleted' });
    expect((await t.request({ method: 'GET', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers })).statusCode).toBe(404);
    const left = await t.deps.db.selectFrom('campaign_sub_users').select('campaign_id').where('sub_user_id', '=', sub.id).execute();
    expect(left).toEqual([]);
  });
});

describe('campaign grants', () => {
  it('replaces the grant set, lists ids and titles, and accepts an empty set', async () => {
    const sub = await createSubUser(alice);
    const [c1, c2, c3] = [await createCampaign(alice), await createCampaign(alice), await createCampaign(alice)];
    const first = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [c1.id, c2.id, c1.id] } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ data: [c1, c2], count: 2 });
    const second = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [c3.id, c2.id] } });
    expect(second.json()).toEqual({ data: [c2, c3], count: 2 });
    expect(await grants(alice, sub.id)).toEqual({ data: [c2, c3], count: 2 });
    const empty = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [] } });
    expect(empty.json()).toEqual({ data: [], count: 0 });
    const malformed = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: ['x'] } });
    expect(malformed.statusCode).toBe(422);
  });

  it('changes nothing when one campaign of the set is unknown (404) or another account\'s (403)', async () => {
    const sub = await createSubUser(alice);
    const [mine, other] = [await createCampaign(alice), await createCampaign(alice)];
    const bobs = await createCampaign(bob);
    await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [mine.id] } });

    const unknown = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [other.id, 987654321] } });
    expect(unknown.statusCode).toBe(404);
    const foreign = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [other.id, bobs.id] } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ detail: 'Not enough permissions' });
    expect(await grants(alice, sub.id)).toEqual({ data: [mine], count: 1 });
  });

  it('grants and revokes single campaigns idempotently, checking ownership of both sides', async () => {
    const sub = await createSubUser(alice);
    const campaign = await createCampaign(alice);
    const bobs = await createCampaign(bob);
    const bobsSub = await createSubUser(bob);
    const url = (s: number, c: number) => `/api/v1/sub-users/${s}/campaigns/${c}`;

    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'POST', url: url(sub.id, campaign.id), headers: alice.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [campaign], count: 1 });
    }
    expect((await t.request({ method: 'POST', url: url(sub.id, bobs.id), headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: url(sub.id, 987654321), headers: alice.headers })).statusCode).toBe(404);
    expect((await t.request({ method: 'POST', url: url(bobsSub.id, campaign.id), headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: url(bobsSub.id, bobs.id), headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/v1/sub-users/${bobsSub.id}/campaigns`, headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url: `/api/v1/sub-users/${bobsSub.id}/campaigns`, headers: alice.headers, payload: { campaign_ids: [] } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/sub-users/987654321/campaigns', headers: alice.headers })).statusCode).toBe(404);

    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'DELETE', url: url(sub.id, campaign.id), headers: alice.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], count: 0 });
    }
    expect((await t.request({ method: 'DELETE', url: url(sub.id, bobs.id), headers: alice.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: url(sub.id, 987654321), headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('a sub-user as the caller', () => {
  it('logs in with its username or e-mail, case-insensitively, and is told it is a sub-user', async () => {
    const email = `${unique('login')}@example.com`;
    const sub = await createSubUser(alice, { username: unique('Login'), email });
    for (const name of [sub.username, sub.username.toUpperCase(), email.toUpperCase()]) {
      const token = await login(t, name, PASSWORD);
      const me = await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
      expect(me.json()).toMatchObject({ id: sub.id, kind: 'sub_user', owner_id: alice.id, username: sub.username });
    }
  });

  it('gets 403 on every sub-user operation, even for itself', async () => {
    const sub = await createSubUser(alice);
    const campaign = await createCampaign(alice);
    await t.request({ method: 'POST', url: `/api/v1/sub-users/${sub.id}/campaigns/${campaign.id}`, headers: alice.headers });
    const headers = bearer(await login(t, sub.username, PASSWORD));
    const calls = [
      { method: 'GET', url: '/api/v1/sub-users' },
      { method: 'POST', url: '/api/v1/sub-users', payload: { username: unique(), password: PASSWORD } },
      { method: 'GET', url: `/api/v1/sub-users/${sub.id}` },
      { method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, payload: { full_name: 'me' } },
      { method: 'DELETE', url: `/api/v1/sub-users/${sub.id}` },
      { method: 'GET', url: `/api/v1/sub-users/${sub.id}/campaigns` },
      { method: 'PUT', url: `/api/v1/sub-users/${sub.id}/campaigns`, payload: { campaign_ids: [] } },
      { method: 'POST', url: `/api/v1/sub-users/${sub.id}/campaigns/${campaign.id}` },
      { method: 'DELETE', url: `/api/v1/sub-users/${sub.id}/campaigns/${campaign.id}` },
    ] as const;
    for (const call of calls) {
      const res = await t.request({ ...call, headers });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ detail: 'Not enough permissions' });
    }
    expect(await grants(alice, sub.id)).toEqual({ data: [campaign], count: 1 });
    expect((await t.request({ method: 'GET', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers })).statusCode).toBe(200);
  });

  it('loses access when its account is deactivated', async () => {
    const owner = await createAccount(t);
    const sub = await createSubUser(owner);
    const headers = bearer(await login(t, sub.username, PASSWORD));
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers })).statusCode).toBe(200);
    await t.deps.db.updateTable('users').set({ is_active: false }).where('id', '=', owner.id).execute();
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers })).statusCode).toBe(401);
  });

  it('loses access on the very next request when deactivated, for good, and again when deleted', async () => {
    const sub = await createSubUser(alice);
    let headers = bearer(await login(t, sub.username, PASSWORD));
    const me = () => t.request({ method: 'GET', url: '/api/v1/users/me', headers });
    expect((await me()).statusCode).toBe(200);

    await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { is_active: false } });
    expect((await me()).statusCode).toBe(401);
    const relogin = await t.request({ method: 'POST', url: '/api/v1/login/access-token', payload: new URLSearchParams({ username: sub.username, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(relogin.statusCode).toBe(400);

    // Reactivated, it signs in again: the token from before the deactivation stays ended.
    await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers, payload: { is_active: true } });
    expect((await me()).statusCode).toBe(401);
    headers = bearer(await login(t, sub.username, PASSWORD));
    expect((await me()).statusCode).toBe(200);

    await t.request({ method: 'DELETE', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers });
    expect((await me()).statusCode).toBe(401);
    await expect(login(t, sub.username, PASSWORD)).rejects.toThrow(/400/);
  });
});
