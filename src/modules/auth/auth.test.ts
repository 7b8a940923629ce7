import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, login, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { createAccessTokenService } from './access-token.ts';
import { MAX_API_KEYS_PER_ACCOUNT } from '../api-keys/api-keys.service.ts';

let t: TestApp;
let admin: Account;
let alice: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAccount(t, { superuser: true });
  alice = await createAccount(t);
});
afterAll(() => t?.close());

const bornAt = async (userId: number) => (await t.deps.db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirstOrThrow()).created_at;

const form = (body: Record<string, string>) => ({
  payload: new URLSearchParams(body).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('login', () => {
  it('answers a bearer JWT for the right e-mail and password, case-insensitively', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/login/access-token', ...form({ username: alice.email.toUpperCase(), password: alice.password }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().token_type).toBe('bearer');
    expect(res.json().access_token.split('.')).toHaveLength(3);
    const me = await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(res.json().access_token) });
    expect(me.json()).toMatchObject({ id: alice.id, email: alice.email, kind: 'user', is_superuser: false });
  });

  it('answers 400 with detail for a wrong password or an unknown e-mail', async () => {
    for (const body of [{ username: alice.email, password: 'wrong password' }, { username: 'nobody@example.com', password: 'x' }]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/login/access-token', ...form(body) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Incorrect email or password' });
    }
  });

  it('answers 422 in FastAPI shape when a form field is missing', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/login/access-token', ...form({ username: alice.email }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContainEqual({ loc: ['body', 'password'], msg: 'Field required', type: 'missing' });
  });
});

describe('credentials', () => {
  it('rejects a missing, malformed, forged or expired credential with 401', async () => {
    const born = await bornAt(alice.id);
    const forged = await createAccessTokenService('another-secret-key-that-is-long-enough-0123', 60).issue(`u:${alice.id}`, born);
    const expired = await createAccessTokenService(t.config.SECRET_KEY, -1).issue(`u:${alice.id}`, born);
    for (const headers of [{}, { authorization: 'Basic abc' }, bearer('not-a-jwt'), bearer(forged), bearer(expired), { 'x-api-key': 'vck_unknown' }]) {
      const res = await t.request({ method: 'GET', url: '/api/v1/users/me', headers });
      expect(res.statusCode).toBe(401);
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('refuses a correctly signed token without an expiry or without the account\'s creation time', async () => {
    const key = new TextEncoder().encode(t.config.SECRET_KEY);
    const born = (await bornAt(alice.id)).getTime();
    const valid = await new SignJWT({ born }).setProtectedHeader({ alg: 'HS256' }).setSubject(`u:${alice.id}`).setExpirationTime('5m').sign(key);
    const noExpiry = await new SignJWT({ born }).setProtectedHeader({ alg: 'HS256' }).setSubject(`u:${alice.id}`).sign(key);
    const noBirth = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(`u:${alice.id}`).setExpirationTime('5m').sign(key);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(valid) })).statusCode).toBe(200);
    for (const token of [noExpiry, noBirth]) {
      expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) })).statusCode).toBe(401);
    }
  });

  it('refuses the token of a deleted account once another account holds its id', async () => {
    const bob = await createAccount(t);
    const token = await login(t, bob.email, bob.password);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) })).statusCode).toBe(200);
    // Deleted and created again under the same id (a restore, a reset sequence): a new row.
    await t.deps.db.deleteFrom('users').where('id', '=', bob.id).execute();
    await seed(t.deps.db, {
      users: [{ id: bob.id, email: `reborn-${bob.id}@example.com`, hashed_password: 'x', full_name: 'Reborn', is_superuser: false, is_active: true, created_at: new Date(Date.now() + 1000) }],
    });
    const res = await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });

  it('accepts the API key header', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/users/me', headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(alice.id);
  });
});

describe('API keys', () => {
  it('shows a new key once, lists it masked, and a deleted key fails on the very next request', async () => {
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', headers: alice.headers, payload: { name: 'crm' } });
    expect(created.statusCode).toBe(200);
    const { id, key, masked_key } = created.json();
    expect(key).toMatch(/^vck_/);
    expect(masked_key.endsWith('****')).toBe(true);
    expect(key.startsWith(masked_key.slice(0, -4))).toBe(true);

    const list = await t.request({ method: 'GET', url: '/api/v1/api-keys', headers: { 'x-api-key': key } });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((k: { id: number }) => k.id)).toContain(id);
    expect(list.body).not.toContain(key);

    const row = await t.deps.db.selectFrom('api_keys').select('key_hash').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(key);

    const del = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: alice.headers });
    expect(del.statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/v1/users/me', headers: { 'x-api-key': key } });
    expect(after.statusCode).toBe(401);
  });

  it('creates a key from a request without any body', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: null, key: expect.stringMatching(/^vck_/) });
  });

  it('never shows or deletes another account\'s key', async () => {
    const bob = await createAccount(t);
    const bobKeys = await t.request({ method: 'GET', url: '/api/v1/api-keys', headers: bob.headers });
    const bobKeyId = bobKeys.json()[0].id;
    const aliceKeys = await t.request({ method: 'GET', url: '/api/v1/api-keys', headers: alice.headers });
    expect(aliceKeys.json().map((k: { id: number }) => k.id)).not.toContain(bobKeyId);
    const del = await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${bobKeyId}`, headers: alice.headers });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual({ detail: 'Not enough permissions' });
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bob.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/api/v1/api-keys/999999', headers: alice.headers })).statusCode).toBe(404);
  });
});

describe('API key cap', () => {
  it('refuses a key past MAX_API_KEYS_PER_ACCOUNT with 409, also when requests race for the last place', async () => {
    const carol = await createAccount(t); // holds one key already
    const make = () => t.request({ method: 'POST', url: '/api/v1/api-keys', headers: carol.headers, payload: {} });
    for (let i = 1; i < MAX_API_KEYS_PER_ACCOUNT - 2; i++) expect((await make()).statusCode).toBe(200);
    const raced = await Promise.all([make(), make(), make()]); // two places left
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 200, 409]);
    const refused = raced.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toEqual({ detail: `An account can hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys; delete one before generating another` });
    const keys = (await t.request({ method: 'GET', url: '/api/v1/api-keys', headers: carol.headers })).json();
    expect(keys).toHaveLength(MAX_API_KEYS_PER_ACCOUNT);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${keys[0].id}`, headers: carol.headers })).statusCode).toBe(200);
    expect((await make()).statusCode).toBe(200);
  });
});

describe('users', () => {
  it('lets a superuser create an account that can then log in', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/users/', headers: admin.headers, payload: { email: 'new.person@example.com', password: 'long enough', full_name: 'New Person' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'new.person@example.com', full_name: 'New Person', is_superuser: false, is_active: true });
    expect(res.json()).not.toHaveProperty('hashed_password');
    expect(await login(t, 'new.person@example.com', 'long enough')).toBeTruthy();
    const again = await t.request({ method: 'POST', url: '/api/v1/users/', headers: admin.headers, payload: { email: 'NEW.person@example.com', password: 'long enough' } });
    expect(again.statusCode).toBe(409);
  });

  it('refuses an account whose e-mail is already a sub-user\'s login name', async () => {
    const sub = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: alice.headers, payload: { username: 'agent.smith', email: 'smith@example.com', password: 'sub password 1' } });
    expect(sub.statusCode).toBe(200);
    for (const email of ['Smith@example.com']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/users/', headers: admin.headers, payload: { email, password: 'long enough' } });
      expect(res.statusCode).toBe(409);
    }
    expect(await login(t, 'agent.smith', 'sub password 1')).toBeTruthy();
  });

  it('refuses account creation to a non-superuser and validates the body', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/users/', headers: alice.headers, payload: { email: 'x@example.com', password: 'long enough' } });
    expect(res.statusCode).toBe(403);
    const bad = await t.request({ method: 'POST', url: '/api/v1/users/', headers: admin.headers, payload: { email: 'not-an-email', password: 'short' } });
    expect(bad.statusCode).toBe(422);
    const locs = bad.json().detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.email', 'body.password']));
  });

  it('stops an inactive account at once', async () => {
    const carol = await createAccount(t);
    const token = await login(t, carol.email, carol.password);
    await t.deps.db.updateTable('users').set({ is_active: false }).where('id', '=', carol.id).execute();
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me', headers: carol.headers })).statusCode).toBe(401);
  });
});

describe('interface conventions', () => {
  it('answers a malformed JSON body with 422 json_invalid', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/api-keys', headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('serves health, readiness and a 404 in the detail shape', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const missing = await t.request({ method: 'GET', url: '/api/v1/nothing-here', headers: alice.headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not Found' });
  });
});
