import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startWorkers } from '../../src/workers.ts';
import { createAccount, type Account } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The dashboard in a real browser: Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium,
 * installed by .ci/run) driven by playwright-core, against the whole service listening on
 * 127.0.0.1 with its workers and the simulator running fast, on the embedded database. The
 * built dashboard (ui/dist, built by `npm ci`) is what the service serves.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUILT = existsSync(new URL('../../ui/dist/index.html', import.meta.url));
// The dashboard is tested on the embedded database (the README's first run); the PostgreSQL pass
// of the suite tests the API, which the dashboard only calls.
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
export const HAS_BROWSER = existsSync(CHROMIUM) && BUILT && !ON_POSTGRES;
if (!HAS_BROWSER && !ON_POSTGRES) console.warn(`dashboard browser tests skipped: ${existsSync(CHROMIUM) ? '' : `no Chromium at ${CHROMIUM}; `}${BUILT ? '' : 'the dashboard is not built (npm run build:ui)'}`);

export const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);

export interface BrowserScene {
  t: TestApp;
  baseUrl: string;
  alice: Account;
  browser: Browser;
  /** A fresh browser context (its own cookies) at `width` px, signed in as `who` when given. */
  /** `bypassCSP`: lets axe-core be injected (the dashboard's policy rightly refuses inline scripts). */
  page(options?: { width?: number; signIn?: { email: string; password: string }; bypassCSP?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

export async function browserScene(env: Record<string, string> = {}): Promise<BrowserScene> {
  const t = await createTestApp({ SIM_TIME_SCALE: '120', DIALER_TICK_MS: '100', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const workers = startWorkers(t.deps);
  const alice = await createAccount(t);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  return {
    t, baseUrl, alice, browser,
    async page({ width = 1280, signIn, bypassCSP = false } = {}) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: baseUrl, bypassCSP });
      const page = await context.newPage();
      if (signIn) await signInAs(page, signIn);
      return page;
    },
    async close() {
      await browser.close();
      await workers.stop();
      await t.close();
    },
  };
}

/** Signs in through the form, as a person does: by its labels and button. */
export async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.goto('/');
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, what: string) {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown }[] }[] }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`);
  });
  expect(violations, `${what}: accessibility`).toEqual([]);
}

/** A screenshot for a reviewer (test-results/screenshots, not committed). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}
