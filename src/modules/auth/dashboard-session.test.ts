import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, createSubUser, login, type Account } from '../../../test/helpers/factories.ts';
import { digestToken } from '../../shared/credentials.ts';
import { CSRF_REFUSAL } from './dashboard-session.ts';

let t: TestApp;
let alice: Account;

// A short lifetime so Max-Age is checkable; LOGIN_MAX_FAILURES low for the throttle case.
beforeAll(async () => {
  t = await createTestApp({ ACCESS_TOKEN_EXPIRE_MINUTES: '90', LOGIN_MAX_FAILURES: '3' });
  alice = await createAccount(t);
});
afterAll(() => t?.close());

const XRW = { 'x-requested-with': 'voice-campaigns' };

const signIn = (username: string, password: string, headers: Record<string, string> = XRW) =>
  t.request({ method: 'POST', url: '/api/v1/session', headers, payload: { username, password } });

/** The Set-Cookie header of an answer, as one string. */
const setCookieOf = (res: LightMyRequestResponse) => {
  const value = res.headers['set-cookie'];
  return Array.isArray(value) ? value.join('\n') : String(value ?? '');
};
const tokenOf = (res: LightMyRequestResponse) => /vc_session=([^;]*)/.exec(setCookieOf(res))![1]!;
const cookie = (token: string) => ({ cookie: `other=1; vc_session=${token}` });

async function signedIn(account: { email: string; password: string } = alice) {
  const res = await signIn(account.email, account.password);
  expect(res.statusCode, res.body).toBe(200);
  return tokenOf(res);
}

const campaignCount = async (ownerId: number) =>
  Number((await t.deps.db.selectFrom('campaigns').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()).n);

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict cookie for the whole site, lasting ACCESS_TOKEN_EXPIRE_MINUTES, not Secure over plain HTTP', async () => {
    const res = await signIn(alice.email.toUpperCase(), alice.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ kind: 'user', id: alice.id, email: alice.email, username: null, full_name: 'Test User', owner_id: alice.id, is_superuser: false });
    const parts = setCookieOf(res).split(';').map((p) => p.trim());
    expect(parts[0]).toMatch(/^vc_session=[A-Za-z0-9_-]{43}$/);
    expect(parts).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${90 * 60}`]));
    expect(parts).not.toContain('Secure');
  });

  it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const behindProxy = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const account = await createAccount(behindProxy);
      const send = (proto: string) => behindProxy.request({
        method: 'POST', url: '/api/v1/session', headers: { ...XRW, 'x-forwarded-proto': proto }, payload: { username: account.email, password: account.password },
      });
      const https = await send('https');
      expect(https.statusCode).toBe(200);
      expect(setCookieOf(https).split(';').map((p) => p.trim())).toContain('Secure');
      expect(setCookieOf(await send('http'))).not.toContain('Secure');
    } finally {
      await behindProxy.close();
    }
    // Without TRUST_PROXY the header is the client's own word: not believed.
    const spoofed = await t.request({ method: 'POST', url: '/api/v1/session', headers: { ...XRW, 'x-forwarded-proto': 'https' }, payload: { username: alice.email, password: alice.password } });
    expect(setCookieOf(spoofed)).not.toContain('Secure');
  });

  it('stores only the digest of the token', async () => {
    const token = await signedIn();
    const rows = await t.deps.db.selectFrom('dashboard_sessions').selectAll().where('user_id', '=', alice.id).execute();
    expect(rows.map((r) => r.token_digest)).toContain(digestToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers 401 with the login\'s message for a wrong password or an unknown name, and sets no cookie', async () => {
    for (const [name, password] of [[alice.email, 'wrong password'], ['nobody@example.com', 'whatever']] as const) {
      const res = await signIn(name, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Incorrect email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is throttled like the login: 429 after LOGIN_MAX_FAILURES wrong passwords', async () => {
    const victim = await createAccount(t);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await signIn(victim.email, 'wrong password')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const refused = await signIn(victim.email, victim.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('needs X-Requested-With, so a cross-site form cannot sign a browser in', async () => {
    const res = await signIn(alice.email, alice.password, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: CSRF_REFUSAL });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('signs a sub-user in by its username, answering its account', async () => {
    const sub = await createSubUser(t, alice.id);
    const res = await signIn(sub.username, sub.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'sub_user', id: sub.id, username: sub.username, email: sub.email, owner_id: alice.id, is_superuser: false });
    const me = await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(tokenOf(res)) });
    expect(me.json()).toMatchObject({ kind: 'sub_user', id: sub.id });
  });
});

describe('the session cookie as a credential', () => {
  it('authenticates reads, and GET /session answers who is signed in', async () => {
    const token = await signedIn();
    const list = await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: cookie(token) });
    expect(list.statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ kind: 'user', id: alice.id, email: alice.email });
  });

  it('refuses a state-changing request without X-Requested-With (403, nothing created) and accepts it with the header', async () => {
    const token = await signedIn();
    const before = await campaignCount(alice.id);
    const body = { title: 'by cookie', campaign_type: 'Outbound' };
    for (const headers of [cookie(token), { ...cookie(token), 'x-requested-with': 'XMLHttpRequest' }]) {
      const refused = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers, payload: body });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: CSRF_REFUSAL });
    }
    expect(await campaignCount(alice.id)).toBe(before);
    const accepted = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: { ...cookie(token), ...XRW }, payload: body });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().owner_id).toBe(alice.id);
    expect(await campaignCount(alice.id)).toBe(before + 1);
  });

  it('asks no header of API-key and bearer requests, which take precedence over the cookie', async () => {
    const body = { title: 'by key', campaign_type: 'Outbound' };
    expect((await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: alice.headers, payload: body })).statusCode).toBe(200);
    const token = await login(t, alice.email, alice.password);
    expect((await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: bearer(token), payload: body })).statusCode).toBe(200);
    // A bad API key beside a good cookie: the key is what is checked.
    const session = await signedIn();
    const res = await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: { ...cookie(session), 'x-api-key': 'not-a-key' } });
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 without a cookie, with an unknown token and with an expired session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/session' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie('A'.repeat(43)) })).statusCode).toBe(401);
    const token = await signedIn();
    await t.deps.db.updateTable('dashboard_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token_digest', '=', digestToken(token)).execute();
    const expired = await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: cookie(token) });
    expect(expired.statusCode).toBe(401);
  });

  it('fails on the next request once the account is deactivated, like the bearer token', async () => {
    const bob = await createAccount(t);
    const token = await signedIn(bob);
    expect((await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: cookie(token) })).statusCode).toBe(200);
    await t.deps.db.updateTable('users').set({ is_active: false }).where('id', '=', bob.id).execute();
    expect((await t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: cookie(token) })).statusCode).toBe(401);
    // And an inactive account cannot sign in: the login's message, as 401.
    const again = await signIn(bob.email, bob.password);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ detail: 'Inactive user' });
  });

  it('fails once a sub-user is deactivated, and once it is deleted', async () => {
    const sub = await createSubUser(t, alice.id);
    const token = tokenOf(await signIn(sub.username, sub.password));
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) })).statusCode).toBe(200);
    await t.deps.db.updateTable('sub_users').set({ is_active: false }).where('id', '=', sub.id).execute();
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) })).statusCode).toBe(401);
    await t.deps.db.updateTable('sub_users').set({ is_active: true }).where('id', '=', sub.id).execute();
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/sub-users/${sub.id}`, headers: alice.headers })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) })).statusCode).toBe(401);
  });
});

describe('signing out', () => {
  it('needs X-Requested-With, then deletes the session, clears the cookie, and the old cookie is 401 everywhere', async () => {
    const token = await signedIn();
    const refused = await t.request({ method: 'DELETE', url: '/api/v1/session', headers: cookie(token) });
    expect(refused.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/session', headers: cookie(token) })).statusCode).toBe(200);

    const res = await t.request({ method: 'DELETE', url: '/api/v1/session', headers: { ...cookie(token), ...XRW } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(setCookieOf(res)).toMatch(/^vc_session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0/);
    const left = await t.deps.db.selectFrom('dashboard_sessions').select('id').where('token_digest', '=', digestToken(token)).execute();
    expect(left).toEqual([]);
    for (const url of ['/api/v1/session', '/api/v1/campaigns/', '/api/v1/users/me']) {
      expect((await t.request({ method: 'GET', url, headers: cookie(token) })).statusCode, url).toBe(401);
    }
    expect((await t.request({ method: 'DELETE', url: '/api/v1/session', headers: { ...cookie(token), ...XRW } })).statusCode).toBe(401);
  });
});
