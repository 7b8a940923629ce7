import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';

let t: TestApp;
let alice: Account;
let now = new Date('2030-01-07T12:00:00Z');

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '3' }, { clock: { now: () => now } });
  alice = await createAccount(t);
});
afterAll(() => t?.close());

const attempt = (username: string, password: string, remoteAddress = '203.0.113.7', headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: '/api/v1/login/access-token',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    remoteAddress,
  });

const failures = async (n: number, username: string, remoteAddress?: string) => {
  for (let i = 0; i < n; i++) expect((await attempt(username, `wrong ${i}`, remoteAddress)).statusCode).toBe(400);
};

describe('failed-login throttle', () => {
  it('answers 429 with Retry-After after LOGIN_MAX_FAILURES wrong passwords, without checking the password, until the window ends', async () => {
    await failures(3, alice.email);
    const refused = await attempt(alice.email, alice.password); // the right password: not even checked
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.json()).toEqual({ detail: 'Too many failed logins; try again in 900 seconds' });

    now = new Date(now.getTime() + 10 * 60_000);
    expect((await attempt(alice.email.toUpperCase(), alice.password)).headers['retry-after']).toBe('300');
    // The owner, from another address, is not locked out by a guesser.
    expect((await attempt(alice.email, alice.password, '198.51.100.9')).statusCode).toBe(200);

    now = new Date(now.getTime() + 5 * 60_000);
    expect((await attempt(alice.email, alice.password)).statusCode).toBe(200);
  });

  it('counts attempts sent in parallel before checking any password, so a burst gets no more guesses', async () => {
    const address = '203.0.113.70';
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(alice.email, `wrong ${i}`, address)));
    const codes = burst.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(3).fill(400), ...Array(9).fill(429)]); // 3 checked, whatever their order
    expect((await attempt(alice.email, alice.password, address)).statusCode).toBe(429);
  });

  it('does not count refused attempts against the address, so retrying one locked name locks out no one else', async () => {
    const address = '203.0.113.90';
    const bob = await createAccount(t);
    await failures(3, alice.email, address);
    for (let i = 0; i < 40; i++) expect((await attempt(alice.email, 'still guessing', address)).statusCode).toBe(429);
    expect((await attempt(bob.email, bob.password, address)).statusCode).toBe(200);
  });

  it('counts a sub-user\'s username and e-mail as one name', async () => {
    const address = '203.0.113.100';
    const created = await t.request({
      method: 'POST', url: '/api/v1/sub-users', headers: alice.headers,
      payload: { username: 'agent.throttle', email: 'agent.throttle@example.com', password: 'agent password 1' },
    });
    expect(created.statusCode).toBe(200);
    await failures(2, 'agent.throttle', address);
    await failures(1, 'Agent.Throttle@example.com', address);
    expect((await attempt('agent.throttle', 'agent password 1', address)).statusCode).toBe(429);
    expect((await attempt('agent.throttle@example.com', 'agent password 1', '203.0.113.101')).statusCode).toBe(200);
  });

  it('keys an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 address', async () => {
    await failures(3, alice.email, '2001:db8:7:1::1');
    expect((await attempt(alice.email, alice.password, '2001:db8:7:1:ffff::99')).statusCode).toBe(429); // same /64
    expect((await attempt(alice.email, alice.password, '2001:db8:7:2::1')).statusCode).toBe(200);
    await failures(3, alice.email, '203.0.113.80');
    expect((await attempt(alice.email, alice.password, '::ffff:203.0.113.80')).statusCode).toBe(429);
  });

  it('forgets a name\'s failures after a successful login', async () => {
    const address = '203.0.113.20';
    await failures(2, alice.email, address);
    expect((await attempt(alice.email, alice.password, address)).statusCode).toBe(200);
    await failures(2, alice.email, address);
    expect((await attempt(alice.email, alice.password, address)).statusCode).toBe(200);
  });

  it('limits one address over all names to ten times as many failures (password spraying)', async () => {
    const address = '203.0.113.30';
    for (let i = 0; i < 30; i++) expect((await attempt(`nobody-${i}@example.com`, 'spring2030', address)).statusCode).toBe(400);
    const refused = await attempt(alice.email, alice.password, address);
    expect(refused.statusCode).toBe(429);
    expect((await attempt(alice.email, alice.password, '203.0.113.31')).statusCode).toBe(200);
  });

  it('counts failures in the database, so every process of the service sees them', async () => {
    const other = await buildApp(t.deps, { logger: false });
    try {
      const address = '203.0.113.40';
      await failures(2, alice.email, address);
      const viaOther = (password: string) => other.inject({
        method: 'POST', url: '/api/v1/login/access-token', remoteAddress: address,
        payload: new URLSearchParams({ username: alice.email, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect((await viaOther('wrong again')).statusCode).toBe(400);
      expect((await viaOther(alice.password)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says a proxy sets it, and then only the proxy\'s entry', async () => {
    const address = '203.0.113.50';
    await failures(3, alice.email, address);
    // A guesser cannot step around the throttle by inventing a forwarded address.
    const spoofed = await attempt(alice.email, alice.password, address, { 'x-forwarded-for': '192.0.2.1' });
    expect(spoofed.statusCode).toBe(429);

    const proxied = await createTestApp({ LOGIN_MAX_FAILURES: '3', TRUST_PROXY: '1' }); // one proxy, which appends the client
    try {
      const user = await createAccount(proxied);
      const via = (client: string, password: string) => proxied.request({
        method: 'POST', url: '/api/v1/login/access-token', remoteAddress: '10.0.0.2',
        payload: new URLSearchParams({ username: user.email, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
      });
      // The client writes a different address of its own before the proxy's each time: only the proxy's counts.
      for (let i = 0; i < 3; i++) expect((await via(`198.18.0.${i}, 192.0.2.1`, 'wrong')).statusCode).toBe(400);
      expect((await via('198.18.0.9, 192.0.2.1', user.password)).statusCode).toBe(429);
      expect((await via('192.0.2.2', user.password)).statusCode).toBe(200); // another client behind the same proxy
    } finally {
      await proxied.close();
    }
  });

  it('warns at start-up that TRUST_PROXY=true trusts a client-written address', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    const lines: string[] = [];
    const app = await buildApp(proxied.deps, { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      expect(lines.some((l) => l.includes('TRUST_PROXY=true'))).toBe(true);
    } finally {
      await app.close();
      await proxied.close();
    }
  });

  it('is off with LOGIN_MAX_FAILURES=0', async () => {
    const open = await createTestApp({ LOGIN_MAX_FAILURES: '0' });
    try {
      const user = await createAccount(open);
      const login = (password: string) => open.request({
        method: 'POST', url: '/api/v1/login/access-token',
        payload: new URLSearchParams({ username: user.email, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      for (let i = 0; i < 12; i++) expect((await login('wrong')).statusCode).toBe(400);
      expect((await login(user.password)).statusCode).toBe(200);
      const { n } = await open.deps.db.selectFrom('login_failures').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(n)).toBe(0);
    } finally {
      await open.close();
    }
  });

  it('refuses a NUL or an overlong login name with 422 (it was a 500)', async () => {
    for (const username of ['a\u0000b@example.com', `${'a'.repeat(400)}@example.com`]) {
      const res = await attempt(username, 'x', '203.0.113.60');
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'username']);
    }
  });
});
