import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { DASHBOARD_CSP, NOT_BUILT_MESSAGE } from './dashboard-static.ts';

// A built dashboard in a temporary directory, with a secret beside it that no URL may reach.
const root = mkdtempSync(path.join(tmpdir(), 'vc-dashboard-'));
const dist = path.join(root, 'dist');
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64"/></svg>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let t: TestApp;
let unbuilt: TestApp;

beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{margin:0}');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'favicon-Ab12_x.svg'), ICON);
  writeFileSync(path.join(root, 'secret.txt'), 'do not serve me');
  t = await createTestApp({}, { dashboardDir: dist });
  unbuilt = await createTestApp({}, { dashboardDir: path.join(root, 'missing') });
});
afterAll(async () => {
  await t?.close();
  await unbuilt?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the built dashboard', () => {
  it('serves index.html for / and for client-side routes, revalidated, with the content-security policy', async () => {
    for (const url of ['/', '/campaigns/12', '/calls?status=finished', '/integrations/webhooks/']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
    }
    expect(DASHBOARD_CSP).toContain("script-src 'self';");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets for a year, immutable, with their content type, gzipped when the client takes it', async () => {
    const js = await t.request({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe(SCRIPT);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.headers['content-security-policy']).toBeUndefined();
    const css = await t.request({ method: 'GET', url: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

    const gz = await t.request({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
  });

  it('serves other files revalidated, and answers HEAD', async () => {
    const svg = await t.request({ method: 'GET', url: '/favicon.svg' });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('no-cache');
    expect((await t.request({ method: 'HEAD', url: '/campaigns/12' })).statusCode).toBe(200);
  });

  it('answers /favicon.ico with the hashed icon index.html links, revalidated; 204 when the build has none', async () => {
    const res = await t.request({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(ICON);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('no-cache');
    const hashed = await t.request({ method: 'GET', url: '/assets/favicon-Ab12_x.svg' });
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const bare = mkdtempSync(path.join(tmpdir(), 'vc-dashboard-bare-'));
    writeFileSync(path.join(bare, 'index.html'), INDEX);
    const without = await createTestApp({}, { dashboardDir: bare });
    try {
      const none = await without.request({ method: 'GET', url: '/favicon.ico' });
      expect(none.statusCode).toBe(204);
      expect(none.body).toBe('');
    } finally {
      await without.close();
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('reaches no file outside the directory', async () => {
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/..%5csecret.txt', '/../package.json']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.body, url).not.toContain('do not serve me');
      expect(res.body, url).not.toContain('"dependencies"');
      expect([400, 404], url).toContain(res.statusCode);
    }
  });

  it('answers a missing file with an extension as a JSON 404, not the page', async () => {
    const res = await t.request({ method: 'GET', url: '/assets/gone-123.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });

  it('leaves the service\'s own paths to the service: unknown API paths stay JSON 404, the docs and health checks answer', async () => {
    for (const url of ['/api/v1/nothing-here', '/api', '/metrics', '/healthz/extra']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: 'Not Found' });
    }
    expect((await t.request({ method: 'POST', url: '/campaigns/12' })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const docs = await t.request({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/') && !['/healthz', '/readyz'].includes(p))).toEqual([]);
  });
});

describe('a dashboard not built', () => {
  it('answers / and client-side routes 503 with how to build it, and leaves the API alone', async () => {
    for (const url of ['/', '/campaigns/12']) {
      const res = await unbuilt.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(NOT_BUILT_MESSAGE);
      expect(res.body).toContain('npm run build:ui');
    }
    expect((await unbuilt.request({ method: 'GET', url: '/assets/index-abc123.js' })).statusCode).toBe(404);
    expect((await unbuilt.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await unbuilt.request({ method: 'GET', url: '/api/v1/campaigns/' })).statusCode).toBe(401);
  });
});
