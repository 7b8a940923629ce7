import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { bearer, createAccount, createSubUser, login } from '../../../test/helpers/factories.ts';
import { WRONG_CURRENT_PASSWORD } from './password-change.service.ts';

/**
 * PUT /users/me/password: the caller's own password. Every other session and token of the login
 * ends; the browser that asked stays signed in with a fresh session; a wrong current password
 * changes nothing.
 */
let t: TestApp;
const XRW = { 'x-requested-with': 'voice-campaigns' };
const tokenOf = (res: LightMyRequestResponse) => /vc_session=([^;]*)/.exec(String(res.headers['set-cookie']))?.[1];
const cookie = (token: string) => ({ cookie: `vc_session=${token}` });

async function signIn(username: string, password: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/session', headers: XRW, payload: { username, password } });
  expect(res.statusCode, res.body).toBe(200);
  return tokenOf(res)!;
}
const whoAmI = async (headers: Record<string, string>) => (await t.request({ method: 'GET', url: '/api/v1/users/me', headers })).statusCode;
const change = (headers: Record<string, string>, current_password: string, new_password: string) =>
  t.request({ method: 'PUT', url: '/api/v1/users/me/password', headers: { ...headers, ...XRW }, payload: { current_password, new_password } });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('changing one\'s own password', () => {
  it('ends the other sessions and tokens, keeps this browser signed in with a fresh session, keeps API keys', async () => {
    const owner = await createAccount(t);
    const here = await signIn(owner.email, owner.password);
    const elsewhere = await signIn(owner.email, owner.password);
    const token = bearer(await login(t, owner.email, owner.password));
    const res = await change(cookie(here), owner.password, 'a much better password');
    expect(res.statusCode, res.body).toBe(204);
    const fresh = tokenOf(res);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(here);
    expect(await whoAmI(cookie(fresh!))).toBe(200);
    expect(await whoAmI(cookie(here))).toBe(401);
    expect(await whoAmI(cookie(elsewhere))).toBe(401);
    expect(await whoAmI(token)).toBe(401);
    expect(await whoAmI(owner.headers)).toBe(200);
    // The new password signs in; the old one no longer does.
    await signIn(owner.email, 'a much better password');
    const old = await t.request({ method: 'POST', url: '/api/v1/session', headers: XRW, payload: { username: owner.email, password: owner.password } });
    expect(old.statusCode).toBe(401);
  });

  it('refuses a wrong current password at that field and changes nothing', async () => {
    const owner = await createAccount(t);
    const here = await signIn(owner.email, owner.password);
    const res = await change(cookie(here), 'not my password', 'a much better password');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: [{ loc: ['body', 'current_password'], msg: WRONG_CURRENT_PASSWORD, type: 'value_error' }] });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await whoAmI(cookie(here))).toBe(200);
    await signIn(owner.email, owner.password);
  });

  it('holds the new password to the account rules (8 to 128 characters)', async () => {
    const owner = await createAccount(t);
    const res = await change(owner.headers, owner.password, 'short');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(['body', 'new_password']);
    await signIn(owner.email, owner.password);
  });

  it('over an API key or a bearer token: changes it and sets no cookie', async () => {
    const owner = await createAccount(t);
    const res = await change(owner.headers, owner.password, 'changed with a key');
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toBeUndefined();
    await signIn(owner.email, 'changed with a key');
  });

  it('lets a sub-user change its own password, ending its other sessions', async () => {
    const owner = await createAccount(t);
    const sub = await createSubUser(t, owner.id);
    const here = await signIn(sub.username, sub.password);
    const res = await change(cookie(here), sub.password, 'the sub-user\'s own');
    expect(res.statusCode, res.body).toBe(204);
    expect(await whoAmI(cookie(tokenOf(res)!))).toBe(200);
    expect(await whoAmI(sub.headers)).toBe(401);
    await signIn(sub.username, 'the sub-user\'s own');
  });

  it('counts wrong current passwords as failed logins: past the limit, 429', async () => {
    const throttled = await createTestApp({ LOGIN_MAX_FAILURES: '2' });
    try {
      const owner = await createAccount(throttled);
      const attempt = () => throttled.request({ method: 'PUT', url: '/api/v1/users/me/password', headers: owner.headers, payload: { current_password: 'guess', new_password: 'whatever123' } });
      expect((await attempt()).statusCode).toBe(422);
      expect((await attempt()).statusCode).toBe(422);
      expect((await attempt()).statusCode).toBe(429);
    } finally {
      await throttled.close();
    }
  });
});
