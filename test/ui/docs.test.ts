import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { CHROMIUM, HAS_BROWSER } from './browser-scene.ts';

/**
 * /docs (Swagger UI) under its content-security policy: the header on the page and its assets,
 * and, in Chromium, the reference rendering every tag's operations with no policy violation.
 */
let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t?.close());

describe('/docs', () => {
  it('is served with a policy that allows no inline script and no framing', async () => {
    for (const path of ['/docs', '/docs/', '/docs/static/swagger-initializer.js', '/docs/static/swagger-ui.css']) {
      const res = await t.request({ method: 'GET', url: path });
      expect(res.statusCode, path).toBeLessThan(400);
      const csp = String(res.headers['content-security-policy'] ?? '');
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
    }
  });

  it.skipIf(!HAS_BROWSER)('renders the operations in Chromium without a policy violation', async () => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      // Run in the page (a string: this file is compiled without the DOM's types).
      await page.addInitScript("document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))");
      await page.goto(`${baseUrl}/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 90_000 });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor();
      expect(violations).toEqual([]);
    } finally {
      await browser?.close();
    }
  }, 150_000);
});
