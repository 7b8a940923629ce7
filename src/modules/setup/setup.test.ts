import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount } from '../../../test/helpers/factories.ts';
import { insertFirstOwner } from './setup.repository.ts';
import { OWNER_EXISTS } from './setup.service.ts';

/**
 * The first run from the browser: while no account exists the service offers to create its owner,
 * once; after that the offer is gone and the operation refuses. Each test has its own database
 * (a fresh service), since what is tested is the first account of one.
 */
const XRW = { 'x-requested-with': 'voice-campaigns' };
const tokenOf = (res: LightMyRequestResponse) => /vc_session=([^;]*)/.exec(String(res.headers['set-cookie']))?.[1];
const owner = (email: string) => ({ email, full_name: 'Olga Owner', password: 'first owner password' });

const apps: TestApp[] = [];
const freshService = async () => {
  const t = await createTestApp();
  apps.push(t);
  return t;
};
afterAll(async () => {
  for (const t of apps) await t.close();
});

const needsOwner = async (t: TestApp) => (await t.request({ method: 'GET', url: '/api/v1/setup' })).json().needs_owner;

describe('first run: creating the owner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await freshService();
  });

  it('offers the owner while no account exists, creates it as a superuser and signs the browser in', async () => {
    expect(await needsOwner(t)).toBe(true);
    const res = await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: owner('Olga@Example.com') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'user', email: 'Olga@Example.com', full_name: 'Olga Owner', is_superuser: true });
    expect(String(res.headers['set-cookie'])).toMatch(/^vc_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    const me = await t.request({ method: 'GET', url: '/api/v1/session', headers: { cookie: `vc_session=${tokenOf(res)}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(res.json().id);
    // The password works for the ordinary sign-in too.
    const signIn = await t.request({ method: 'POST', url: '/api/v1/session', headers: XRW, payload: { username: 'olga@example.com', password: 'first owner password' } });
    expect(signIn.statusCode).toBe(200);
  });

  it('then never offers it again and refuses a second owner with 409, changing nothing', async () => {
    expect(await needsOwner(t)).toBe(false);
    const res = await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: owner('mallory@example.com') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: OWNER_EXISTS });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await t.deps.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'Olga@Example.com' }]);
  });
});

describe('first run: refusals', () => {
  it('is closed on a service whose account came from the CLI or FIRST_USER_*', async () => {
    const t = await freshService();
    await createAccount(t);
    expect(await needsOwner(t)).toBe(false);
    expect((await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: owner('late@example.com') })).statusCode).toBe(409);
  });

  it('asks the CSRF header and the password rules of every account, creating nothing when refused', async () => {
    const t = await freshService();
    expect((await t.request({ method: 'POST', url: '/api/v1/setup', payload: owner('x@example.com') })).statusCode).toBe(403);
    const short = await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: { ...owner('x@example.com'), password: 'short' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0].loc).toEqual(['body', 'password']);
    const email = await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: owner('not an e-mail') });
    expect(email.statusCode).toBe(422);
    expect(email.json().detail[0].loc).toEqual(['body', 'email']);
    const long = await t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: { ...owner('x@example.com'), password: 'p'.repeat(129) } });
    expect(long.statusCode).toBe(422);
    expect(await needsOwner(t)).toBe(true);
  });
});

describe('first run: two browsers at once', () => {
  it('creates exactly one owner; every other request gets 409 and no cookie', async () => {
    const t = await freshService();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.request({ method: 'POST', url: '/api/v1/setup', headers: XRW, payload: owner(`racer-${i}@example.com`) })),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.headers['set-cookie'] !== undefined)).toHaveLength(1);
    expect(await t.deps.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });
});

describe('first run: the guarded insert itself', () => {
  it('inserts one owner when many transactions ask at the same moment', async () => {
    const t = await freshService();
    const row = (i: number) => ({ email: `direct-${i}@example.com`, hashed_password: 'not a real hash', full_name: null });
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => insertFirstOwner(t.deps.db, row(i))));
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await t.deps.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });
});
