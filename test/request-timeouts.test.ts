import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Slow clients, over real sockets: a body or headers trickled a byte at a time are cut off at
 * their deadline (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS), here set small. The attack held 50 of
 * 50 such sockets open past 90 s.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000', UPLOAD_TIMEOUT_MS: '20000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}, 60_000);
afterAll(() => t?.close());

/** Opens a socket, writes `head`, then one byte of `drip` every 100 ms; answers when and how the server ended it. */
function trickle(head: string, drip: string): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const started = performance.now();
    let answer = '';
    let at = 0;
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.write(head);
    const dripper = setInterval(() => {
      if (!socket.writable) return;
      socket.write(drip[at % drip.length]!);
      at++;
    }, 100);
    // Give up after 6 s (the test's bound): a socket still open then is the bug.
    const giveUp = setTimeout(() => socket.destroy(), 6000);
    socket.on('close', () => {
      clearInterval(dripper);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: performance.now() - started, answer });
    });
  });
}

const FORM_HEAD = 'POST /api/v1/voice/twilio/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n';

describe('request deadlines', () => {
  it('closes 10 sockets trickling a body to an unauthenticated vendor route after REQUEST_TIMEOUT_MS, answering 408', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => trickle(FORM_HEAD, 'CallSid=CA1&')));
    for (const r of results) {
      expect(r.closedAfterMs).toBeGreaterThan(900);
      expect(r.closedAfterMs).toBeLessThan(4000);
      expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(r.answer).toContain('took too long');
    }
  }, 15_000);

  it('closes a socket trickling its headers after HEADERS_TIMEOUT_MS', async () => {
    const r = await trickle('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'abcdefgh');
    expect(r.closedAfterMs).toBeLessThan(3000);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 15_000);

  it('leaves a body that arrives in time alone', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/login/access-token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=nobody%40example.com&password=wrong-password' });
    expect(res.status).toBe(400);
  });
});
