import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The integration token never reaches the log, however its name is spelt: each request goes
 * through the app with the process logger (as `serve` builds it), and every line written is read.
 */
const TOKEN = 'vci_LeakCanary0123456789';
let t: TestApp;
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
  app = await buildApp({ ...t.deps, log: pino({ level: 'info' }, sink) });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const PATH = '/api/v1/contact-creation-integration/create-contact';

describe('the integration token in request logs', () => {
  it.each([
    `token=${TOKEN}`,
    `token[]=${TOKEN}`,
    `token%00=${TOKEN}`,
    `phone=%2B1;token=${TOKEN}`,
    `;token=${TOKEN}`,
    `TOKEN=${TOKEN}`,
    `%74oken=${TOKEN}`,
    `%2574oken=${TOKEN}`,
    `to%6Ben%5B%5D=${TOKEN}`,
    `token=a&token=${TOKEN}`,
    `+token=${TOKEN}`,
    `access_token=${TOKEN}`,
    `next=/x?token=${TOKEN}`,
  ])('is redacted when sent as ?%s', async (query) => {
    const before = lines.length;
    await app.inject({ method: 'POST', url: `${PATH}?${query}`, payload: { phone_number: '+12125550100' } });
    const written = lines.slice(before);
    expect(written.length).toBeGreaterThan(0);
    expect(written.some((l) => l.includes('[redacted]'))).toBe(true);
    for (const line of written) expect(line, line).not.toContain('LeakCanary');
  });

  it('keeps the rest of the address as sent', async () => {
    const before = lines.length;
    // Not a health probe: their request lines are at debug, below this logger's level.
    await app.inject({ method: 'GET', url: '/api/v1/users/me?phone=%2B1&took=keep' });
    expect(lines.slice(before).some((l) => l.includes('/api/v1/users/me?phone=%2B1&took=keep'))).toBe(true);
  });
});

describe('health probes in request logs', () => {
  it('are written at debug, not info, with the usual request lines', async () => {
    const debugLines: string[] = [];
    const sink = new Writable({ write(chunk, _encoding, done) { debugLines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
    const debugApp = await buildApp({ ...t.deps, log: pino({ level: 'debug' }, sink) });
    try {
      await debugApp.inject({ method: 'GET', url: '/readyz' });
      await debugApp.inject({ method: 'GET', url: '/healthz?from=probe' });
      await debugApp.inject({ method: 'GET', url: '/api/v1/users/me' });
      const levelsOf = (path: string) => {
        const ids = new Set(debugLines.map((l) => JSON.parse(l)).filter((e) => e.req?.url?.startsWith(path)).map((e) => e.reqId));
        return debugLines.map((l) => JSON.parse(l)).filter((e) => ids.has(e.reqId)).map((e) => `${e.level} ${e.msg}`);
      };
      expect(levelsOf('/readyz')).toEqual(['20 incoming request', '20 request completed']);
      expect(levelsOf('/healthz')).toEqual(['20 incoming request', '20 request completed']);
      expect(levelsOf('/api/v1/users/me')).toEqual(['30 incoming request', '30 request completed']);
    } finally {
      await debugApp.close();
    }
  });
});
