import { SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, createSubUser, login, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import { digestToken } from '../../shared/credentials.ts';
import { revokeCredentials } from './credential-revocation.ts';

/**
 * A new password or a deactivation ends a login's dashboard sessions and bearer tokens for good:
 * reactivating it brings none of them back. The owner's session that made the change stays.
 */
let t: TestApp;
let owner: Account;
let ownerCookie: Record<string, string>;

const XRW = { 'x-requested-with': 'voice-campaigns' };
const tokenOf = (res: LightMyRequestResponse) => /vc_session=([^;]*)/.exec(String(res.headers['set-cookie']))![1]!;
const cookie = (token: string) => ({ cookie: `vc_session=${token}` });

async function cookieSession(username: string, password: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/session', headers: XRW, payload: { username, password } });
  expect(res.statusCode, res.body).toBe(200);
  return tokenOf(res);
}

const whoAmI = async (headers: Record<string, string>) => (await t.request({ method: 'GET', url: '/api/v1/users/me', headers })).statusCode;

/** The owner changes its sub-user, from its own dashboard session (so the CSRF header too). */
async function ownerChanges(sub: SubUser, body: Record<string, unknown>) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/sub-users/${sub.id}`, headers: { ...ownerCookie, ...XRW }, payload: body });
  expect(res.statusCode, res.body).toBe(200);
}

/** A sub-user signed in twice over: a dashboard cookie and a bearer token, both working. */
async function signedInSubUser() {
  const sub = await createSubUser(t, owner.id);
  const credentials = { cookie: cookie(await cookieSession(sub.username, sub.password)), bearer: sub.headers };
  expect(await whoAmI(credentials.cookie)).toBe(200);
  expect(await whoAmI(credentials.bearer)).toBe(200);
  return { sub, credentials };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  ownerCookie = cookie(await cookieSession(owner.email, owner.password));
});
afterAll(() => t?.close());

describe('a sub-user\'s new password', () => {
  it('ends its dashboard sessions and bearer tokens; the new password signs in; the owner\'s session stays', async () => {
    const { sub, credentials } = await signedInSubUser();
    await ownerChanges(sub, { password: 'a brand new password' });
    expect(await whoAmI(credentials.cookie)).toBe(401);
    expect(await whoAmI(credentials.bearer)).toBe(401);
    expect(await whoAmI(ownerCookie)).toBe(200);
    expect(await whoAmI(cookie(await cookieSession(sub.username, 'a brand new password')))).toBe(200);
    expect(await whoAmI(bearer(await login(t, sub.username, 'a brand new password')))).toBe(200);
  });

  it('leaves them alone when the change is of the name or e-mail only', async () => {
    const { sub, credentials } = await signedInSubUser();
    await ownerChanges(sub, { full_name: 'Renamed', email: null });
    expect(await whoAmI(credentials.cookie)).toBe(200);
    expect(await whoAmI(credentials.bearer)).toBe(200);
  });
});

describe('a deactivated sub-user', () => {
  it('stays signed out after it is reactivated: its old sessions and tokens are gone for good', async () => {
    const { sub, credentials } = await signedInSubUser();
    await ownerChanges(sub, { is_active: false });
    expect(await whoAmI(credentials.cookie)).toBe(401);
    expect(await whoAmI(credentials.bearer)).toBe(401);
    await ownerChanges(sub, { is_active: true });
    expect(await whoAmI(credentials.cookie)).toBe(401);
    expect(await whoAmI(credentials.bearer)).toBe(401);
    const rows = await t.deps.db.selectFrom('dashboard_sessions').select('id').where('sub_user_id', '=', sub.id).execute();
    expect(rows).toEqual([]);
    // Signing in again works, with the same password.
    expect(await whoAmI(cookie(await cookieSession(sub.username, sub.password)))).toBe(200);
    expect(await whoAmI(bearer(await login(t, sub.username, sub.password)))).toBe(200);
  });
});

describe('revokeCredentials', () => {
  it('keeps the session that changed its own login\'s password and ends every other one and every bearer token', async () => {
    const account = await createAccount(t);
    const [kept, other] = [await cookieSession(account.email, account.password), await cookieSession(account.email, account.password)];
    const token = bearer(await login(t, account.email, account.password));
    await t.deps.db.transaction().execute((trx) => revokeCredentials(trx, { kind: 'user', id: account.id }, digestToken(kept)));
    expect(await whoAmI(cookie(kept))).toBe(200);
    expect(await whoAmI(cookie(other))).toBe(401);
    expect(await whoAmI(token)).toBe(401);
    expect(await whoAmI(account.headers)).toBe(200); // API keys are the account's, not a login's
  });

  it('accepts a token issued before credential versions existed (no cv claim) until the first change', async () => {
    const account = await createAccount(t);
    const row = await t.deps.db.selectFrom('users').select('created_at').where('id', '=', account.id).executeTakeFirstOrThrow();
    const old = await new SignJWT({ born: row.created_at.getTime() }).setProtectedHeader({ alg: 'HS256' }).setSubject(`u:${account.id}`)
      .setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(t.config.SECRET_KEY));
    expect(await whoAmI(bearer(old))).toBe(200);
    await t.deps.db.transaction().execute((trx) => revokeCredentials(trx, { kind: 'user', id: account.id }));
    expect(await whoAmI(bearer(old))).toBe(401);
  });
});
