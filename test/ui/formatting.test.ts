import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../ui/src/format/money.ts';
import { formatTime } from '../../ui/src/format/time.ts';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { createAccount, createCampaignViaApi, type Account } from '../helpers/factories.ts';
import { seed } from '../helpers/seed.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { responseTo } from './ops-helpers.ts';

/**
 * The account's display zone and currency in Debian's Chromium against the whole service: set on
 * the account page, then every page shows the same instant in that zone (named), the same amount
 * in that currency, and statuses as words; every table stays readable at 1280 and 390 px.
 */
const ZONE = 'America/New_York';
const NEXT_OPENING = '2030-11-25T17:00:00.000Z';
let s: BrowserScene;
let receiver: Receiver;
let callIds: number[];
let startTimes: Date[];

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  receiver = await startReceiver();
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Formatting spring' });
  const owner = { id: campaign.id, owner_id: s.alice.id };
  startTimes = [1, 2, 3].map((h) => new Date(Date.now() - h * 3_600_000));
  const seeded = await seed(s.t.deps.db, {
    contacts: [
      { campaign: owner, phone_number: '+12125557201', status: 'call_scheduled', next_action_time: new Date(NEXT_OPENING), next_action_reason: `outside calling window; next opening ${NEXT_OPENING}` },
      { campaign: owner, phone_number: '+12125557202', status: 'finished' },
      { campaign: owner, phone_number: '+12125557203', status: 'finished' },
    ],
    calls: [
      { contact: 0, call_type: 'outbound', status: 'busy_or_rejected', call_duration: 0, cost: 0.306, start_time: startTimes[0] },
      { contact: 1, call_type: 'outbound', status: 'finished', action_status: 'interested', call_duration: 42, cost: 0.075, start_time: startTimes[1] },
      { contact: 2, call_type: 'outbound', status: 'finished', call_duration: 61, cost: 2.03, start_time: startTimes[2] },
    ],
  });
  callIds = seeded.calls.map((c) => c.id);
  const res = await s.t.request({ method: 'PUT', url: '/api/v1/users/me/preferences', headers: s.alice.headers, payload: { display_timezone: ZONE, display_currency: 'EUR' } });
  expect(res.statusCode, res.body).toBe(200);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

/** The page's own locale, so the expected text is formatted exactly as the page formats it. */
const localeOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { navigator: { language: string } }).navigator.language);
const overflow = (page: Page) => page.evaluate(() => {
  const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
  return root.scrollWidth - root.clientWidth;
});

/** Axe at both widths, no sideways scroll of the page at 390 px, and a screenshot of each for a reviewer. */
async function checkWidths(path: string, ready: (page: Page) => Promise<unknown>, name: string, who: Account = s.alice) {
  for (const width of [1280, 390]) {
    const page = await s.page({ width, signIn: who, bypassCSP: true });
    await page.goto(path);
    await ready(page);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${name} at ${width} px`);
    expect(await overflow(page), `${name} at ${width} px scrolls sideways`).toBe(0);
    await screenshot(page, `formatting-${name}-${width}`);
    await page.context().close();
  }
}

describe.skipIf(!HAS_BROWSER)('display zone and currency in the browser', () => {
  it('lets the owner choose them on the account page, with a preview, and saves them through the API', async () => {
    const bob = await createAccount(s.t);
    const page = await s.page({ signIn: bob });
    await page.goto('/account');
    const zone = page.getByRole('combobox', { name: 'Time zone', exact: true });
    await zone.waitFor();
    expect(await zone.inputValue()).toMatch(/^Each viewer's own zone/);
    await zone.fill('Asia/Tok');
    await page.getByRole('option', { name: 'Asia/Tokyo', exact: true }).click();
    const currency = page.getByRole('combobox', { name: 'Currency', exact: true });
    await currency.fill('INR');
    await page.getByRole('option', { name: /^INR · / }).click();
    const locale = await localeOf(page);
    await page.getByText(`a call costing ${formatMoney(0.075, 'INR', locale)}`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save display preferences' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await s.t.request({ method: 'GET', url: '/api/v1/users/me/preferences', headers: bob.headers });
    expect(saved.json()).toEqual({ display_timezone: 'Asia/Tokyo', display_currency: 'INR' });
    await page.context().close();
    await checkWidths('/account', (p) => p.getByRole('button', { name: 'Save display preferences' }).waitFor(), 'account', bob);
  }, 90_000);

  it('shows one call\'s cost alike in the calls list and on its page, with statuses as words and times in the zone', async () => {
    const page = await s.page({ signIn: s.alice });
    const locale = await localeOf(page);
    await page.goto('/calls');
    const table = page.getByRole('table', { name: 'Calls' });
    const busy = table.locator(`tr[data-call-id="${callIds[0]}"]`);
    await busy.waitFor();
    await expect.poll(() => busy.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining([
      'Busy or rejected', 'Outbound', formatMoney(0.306, 'EUR', locale), formatTime(startTimes[0]!, ZONE, locale),
    ]));
    expect(formatTime(startTimes[0]!, ZONE, locale)).toMatch(/E[SD]T$/);
    const interested = table.locator(`tr[data-call-id="${callIds[1]}"]`);
    expect(await interested.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['Finished', 'Interested', '€0.075']));
    expect(await table.locator(`tr[data-call-id="${callIds[2]}"]`).getByRole('cell').allTextContents()).toContain('€2.03');

    await page.goto(`/calls/${callIds[1]}`);
    await page.getByRole('heading', { name: `Call ${callIds[1]}` }).waitFor();
    await page.getByText('€0.075', { exact: true }).waitFor();
    await page.getByText('Interested', { exact: true }).waitFor();
    await page.getByText(formatTime(startTimes[1]!, ZONE, locale), { exact: true }).waitFor();
    await page.context().close();
    await checkWidths('/calls', (p) => p.getByRole('table', { name: 'Calls' }).locator('tbody tr').first().waitFor(), 'calls');
    await checkWidths(`/calls/${callIds[0]}`, (p) => p.getByText('Busy or rejected', { exact: true }).waitFor(), 'call');
  }, 120_000);

  it('shows a contact\'s status as words and the time inside its next-action reason in the zone', async () => {
    const page = await s.page({ signIn: s.alice });
    const locale = await localeOf(page);
    await page.goto('/contacts');
    const row = page.getByRole('table', { name: 'Contacts' }).getByRole('row', { name: /\+12125557201/ });
    await row.waitFor();
    expect(await row.getByText('Call scheduled', { exact: true }).count()).toBe(1);
    const opening = formatTime(NEXT_OPENING, ZONE, locale);
    expect(opening).toMatch(/^Nov 25, 2030, 12:00\sPM EST$/);
    await row.getByText(`outside calling window; next opening ${opening}`, { exact: true }).waitFor();
    expect(await row.textContent()).not.toContain('T17:00');
    await page.context().close();
    await checkWidths('/contacts', (p) => p.getByText('Call scheduled', { exact: true }).first().waitFor(), 'contacts');
  }, 120_000);

  it('asks analytics for the display zone and shows its money in the currency', async () => {
    const page = await s.page({ signIn: s.alice });
    const locale = await localeOf(page);
    const detailed = await responseTo(page, '/api/v1/analytics/detailed', { timezone: ZONE }, () => page.goto('/analytics'));
    const report = await detailed.json();
    expect(report.period.timezone).toBe(ZONE);
    expect(report.totals.total_cost).toBe(2.41);
    const total = page.getByRole('group', { name: 'Total cost', exact: true });
    await expect.poll(() => total.locator('p').first().textContent()).toBe(formatMoney(2.41, 'EUR', locale));
    const byStatus = page.getByRole('table', { name: 'Calls by status' });
    expect(await byStatus.getByRole('row', { name: /Busy or rejected/ }).getByRole('cell').allTextContents()).toEqual(['Busy or rejected', '1']);
    expect(await page.getByRole('table', { name: 'Calls by campaign' }).getByRole('row', { name: /Formatting spring/ }).getByRole('cell').nth(3).textContent()).toBe('€2.41');
    await page.getByRole('heading', { name: `Calls by hour of day (${ZONE})` }).waitFor();
    await page.context().close();
    await checkWidths('/analytics', (p) => p.getByRole('heading', { name: 'Breakdowns' }).waitFor(), 'analytics');
  }, 120_000);

  it('shows every column of the deliveries log whole at 1280 px, and the log readable at 390 px', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Deliveries width' });
    const hook = await s.t.request({
      method: 'POST', url: '/api/v1/integrations/webhooks/', headers: s.alice.headers,
      payload: { name: 'Wide log', url: `${receiver.url}/crm`, request_schema: 'name - the caller\'s name', campaign_ids: [campaign.id] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    receiver.respond = () => ({ status: 500, body: JSON.stringify({ error: 'the receiving CRM refused the record because a required field was missing' }) });
    const fired = await s.t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${hook.json().id}/test`, headers: s.alice.headers });
    expect(fired.statusCode, fired.body).toBe(200);
    for (const width of [1280, 390]) {
      const page = await s.page({ width, signIn: s.alice, bypassCSP: true });
      await page.goto('/integrations');
      await page.getByRole('button', { name: 'Deliveries of Wide log' }).click();
      const log = page.getByRole('dialog', { name: 'Deliveries of Wide log' });
      await log.getByRole('table', { name: 'Deliveries' }).locator('tbody tr').first().waitFor();
      expect(await log.getByRole('table', { name: 'Deliveries' }).getByText('Failed', { exact: true }).count()).toBe(1);
      const region = log.getByRole('region', { name: 'Deliveries table' });
      const cut = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
      // At 1280 px nothing is cut; at 390 px the table scrolls inside its own keyboard-reachable region, and the page does not.
      if (width === 1280) expect(cut, 'deliveries columns cut at 1280 px').toBe(0);
      expect(await overflow(page)).toBe(0);
      await expectAccessible(page, `deliveries log at ${width} px`);
      await screenshot(page, `formatting-deliveries-${width}`);
      await page.context().close();
    }
  }, 120_000);
});
