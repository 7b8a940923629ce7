import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { choose, describedBy } from './ops-helpers.ts';

/**
 * The calls list in Debian's Chromium against the whole service: calls are made by the dialer
 * and the simulator (contacts whose _sim fixes the outcome), in two batches a second apart so a
 * start-time range can tell them apart. What the table shows is compared with the API's own
 * answer to the same query.
 */
let s: BrowserScene;
let north: { id: number; title: string };
let south: { id: number; title: string };
let between = ''; // an instant after the first batch started and before the second
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  const open = { call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' };
  north = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Calls filter north', ...open });
  south = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Calls filter south', ...open });
  await seed(north, [['+12125550401', 'finished'], ['+12125550402', 'voicemail'], ['+12125550403', 'finished']]);
  await seed(south, [['+12125550404', 'finished']]);
  await new Promise((r) => setTimeout(r, 1100));
  between = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  await new Promise((r) => setTimeout(r, 1100));
  await seed(north, [['+12125550405', 'finished', 'I would love the papaya plan'], ['+12125550406', 'busy_or_rejected'], ['+12125550407', 'finished']]);
  await seed(south, [['+12125550408', 'finished', 'papaya for me too']]);
}, 120_000);
afterAll(async () => s?.close());

type Seed = [phone: string, status: string, said?: string];

/** Contacts whose calls end as given, queued through the API; waits until every call of the campaign has ended. */
async function seed(campaign: { id: number }, contacts: Seed[]) {
  for (const [phone, status, said] of contacts) {
    const _sim = { status, duration: 20, ...(said ? { transcript: [{ role: 'assistant', text: 'Hello, do you have a minute?' }, { role: 'user', text: said }] } : {}) };
    const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: phone, status: 'new', contact_data: { name: 'Ann', _sim } } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const queued = await s.t.request({ method: 'POST', url: `/api/v1/campaigns/enqueue_calls/${campaign.id}`, headers: s.alice.headers });
  expect(queued.statusCode, queued.body).toBe(200);
  // expect.poll belongs to tests; this runs in beforeAll.
  for (const deadline = Date.now() + 60_000; ;) {
    const calls = (await apiCalls(`campaign_id=${campaign.id}&limit=1000`)).data;
    const ended = calls.filter((c) => c.status !== 'new' && c.status !== 'in progress').map((c) => c.to_number);
    if (contacts.every(([phone]) => ended.includes(phone))) return;
    if (Date.now() > deadline) throw new Error(`calls of campaign ${campaign.id} did not end: ${JSON.stringify(calls)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function apiCalls(query: string): Promise<{ count: number; data: { id: number; status: string; to_number: string }[] }> {
  const res = await s.t.request({ method: 'GET', url: `/api/v1/calls/?${query}`, headers: s.alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The call ids the table shows, in order. */
const shownIds = (page: Page) => page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: /^Call \d+$/ }).allTextContents()
  .then((texts) => texts.map((t) => Number(t.replace('Call ', ''))));

/** An instant as the page's datetime-local inputs take it (the browser's own time zone). */
const localInput = (page: Page, iso: string) => page.evaluate((v) => {
  const d = new Date(v);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}, iso);

describe.skipIf(!HAS_BROWSER)('calls in the browser', () => {
  it('filters by campaign, status, start time and call data, shows exactly the API\'s answer, and keeps the filters in the URL', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calls', exact: true }).click();
    await page.getByRole('heading', { name: 'Calls', level: 2 }).waitFor();
    const all = await apiCalls('limit=25');
    await expect.poll(() => shownIds(page)).toEqual(all.data.map((c) => c.id));

    await choose(page, 'Campaigns', north.title);
    await page.keyboard.press('Escape');
    await choose(page, 'Statuses', 'Finished');
    await page.keyboard.press('Escape');
    await page.getByLabel('Started from', { exact: true }).fill(await localInput(page, between));
    const expected = await apiCalls(`campaign_id=${north.id}&status=finished&start_time_from=${encodeURIComponent(between)}`);
    expect(expected.count, 'the second batch of north: two finished calls').toBe(2);
    await expect.poll(() => shownIds(page)).toEqual(expected.data.map((c) => c.id));
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'match the filters' }).textContent()).toBe('2 calls match the filters');

    // The call-data search narrows to the call whose transcript says "papaya".
    await page.getByLabel('Search in call data', { exact: true }).fill('PAPAYA');
    const searched = await apiCalls(`campaign_id=${north.id}&status=finished&start_time_from=${encodeURIComponent(between)}&call_data=PAPAYA`);
    expect(searched.data.map((c) => c.to_number)).toEqual(['+12125550405']);
    await expect.poll(() => shownIds(page)).toEqual(searched.data.map((c) => c.id));

    // The URL holds the filters under the API's names: a reload (or a shared link) shows the same view.
    const url = new URL(page.url());
    expect(url.searchParams.getAll('campaign_id')).toEqual([String(north.id)]);
    expect(url.searchParams.getAll('status')).toEqual(['finished']);
    expect(new Date(url.searchParams.get('start_time_from')!).toISOString()).toBe(between);
    expect(url.searchParams.get('call_data')).toBe('PAPAYA');
    await page.reload();
    await expect.poll(() => shownIds(page)).toEqual(searched.data.map((c) => c.id));
    expect(await page.getByLabel('Search in call data', { exact: true }).inputValue()).toBe('PAPAYA');
    // Chromium shows a datetime-local value without its seconds when they are 00.
    expect((await page.getByLabel('Started from', { exact: true }).inputValue()).replace(/:00$/, '')).toBe((await localInput(page, between)).replace(/:00$/, ''));
    // The campaign filter names its campaign once the campaigns are read (slower than the calls under load).
    await expect.poll(() => page.getByRole('search', { name: 'Call filters' }).getByText(north.title).count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // An upper start bound before the second batch leaves only the first batch's finished north calls.
    await page.getByLabel('Search in call data', { exact: true }).fill('');
    await page.getByLabel('Started from', { exact: true }).fill('');
    await page.getByLabel('Started until', { exact: true }).fill(await localInput(page, new Date(Date.parse(between) - 1000).toISOString()));
    const early = await apiCalls(`campaign_id=${north.id}&status=finished&start_time_to=${encodeURIComponent(new Date(Date.parse(between) - 1).toISOString())}`);
    expect(early.count).toBe(2);
    await expect.poll(() => shownIds(page)).toEqual(early.data.map((c) => c.id));

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => shownIds(page)).toEqual(all.data.map((c) => c.id));
    expect(new URL(page.url()).search).toBe('');
    await page.context().close();
  });

  it('shows the API\'s 422 for a bad filter value next to that filter', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.goto('/calls?duration_from=1.5');
    const field = page.getByLabel('Duration from (s)', { exact: true });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const problem = await s.t.request({ method: 'GET', url: '/api/v1/calls/?duration_from=1.5', headers: s.alice.headers });
    expect(problem.statusCode).toBe(422);
    const msg = problem.json().detail[0].msg as string;
    expect(await describedBy(field)).toContain(msg);
    expect(await page.getByRole('table', { name: 'Calls' }).getByRole('link').count()).toBe(0);
    await field.fill('15');
    await expect.poll(() => field.getAttribute('aria-invalid')).not.toBe('true');
    const fine = await apiCalls('duration_from=15&limit=25');
    await expect.poll(() => shownIds(page)).toEqual(fine.data.map((c) => c.id));
    await page.context().close();
  });

  it('is accessible and fits 390 px with filters set', async () => {
    const page = await s.page({ width: 390, signIn: s.alice, bypassCSP: true });
    await page.goto(`/calls?campaign_id=${south.id}&status=finished&duration_from=10`);
    const expected = await apiCalls(`campaign_id=${south.id}&status=finished&duration_from=10&limit=25`);
    expect(expected.count).toBe(2);
    await expect.poll(() => shownIds(page)).toEqual(expected.data.map((c) => c.id));
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, 'calls at 390 px');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'calls-filtered-390');
    await page.context().close();
  });
});
