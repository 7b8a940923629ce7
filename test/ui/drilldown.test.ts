import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * Drill-down in Debian's Chromium against the whole service: a campaign's page lists its outcomes,
 * contacts and calls; the calls list names the contact; a contact's page lists every attempt; the
 * call page shows the vendor's analysis and a download of the recording. Calls are made by the
 * dialer and the simulator (_sim fixes each outcome).
 */
let s: BrowserScene;
let campaign: { id: number; title: string };
let annId = 0;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Drill-down papaya', call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' });
  const people = [
    { phone: '+12125550501', data: { name: 'Ann Papaya', _sim: { status: 'finished', action_status: 'interested', duration: 20 } } },
    { phone: '+12125550502', data: { first_name: 'Bob', last_name: 'Mango', _sim: { status: 'voicemail', duration: 5 } } },
    { phone: '+12125550503', data: { _sim: { status: 'busy_or_rejected' } } },
  ];
  for (const p of people) {
    const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: p.phone, status: 'new', contact_data: p.data } });
    expect(res.statusCode, res.body).toBe(200);
    if (p.phone.endsWith('501')) annId = res.json().id;
  }
  const queued = await s.t.request({ method: 'POST', url: `/api/v1/campaigns/enqueue_calls/${campaign.id}`, headers: s.alice.headers });
  expect(queued.statusCode, queued.body).toBe(200);
  for (const deadline = Date.now() + 60_000; ;) {
    const calls = await apiCalls(`campaign_id=${campaign.id}`);
    if (calls.length === 3 && calls.every((c) => c.status !== 'new' && c.status !== 'in progress')) break;
    if (Date.now() > deadline) throw new Error(`calls did not end: ${JSON.stringify(calls)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // A vendor's analysis and a recording, as a Vapi call stores them.
  const ann = (await apiCalls(`contact_id=${annId}`))[0]!;
  await s.t.deps.db.updateTable('calls').set({
    call_data: JSON.stringify({ analysis: { summary: 'Ann wants the papaya plan.', successEvaluation: 'true', sentiment: 'positive' } }) as never,
    record_url: 'https://recordings.example.test/ann.wav',
  }).where('id', '=', ann.id).execute();
}, 120_000);
afterAll(async () => s?.close());

async function apiCalls(query: string): Promise<{ id: number; status: string; to_number: string; contact_id: number }[]> {
  const res = await s.t.request({ method: 'GET', url: `/api/v1/calls/?${query}`, headers: s.alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const open = async (path: string, width = 1280): Promise<Page> => {
  const page = await s.page({ signIn: s.alice, width, bypassCSP: true });
  await page.goto(path);
  return page;
};

describe.skipIf(!HAS_BROWSER)('drill-down in the browser', () => {
  it('the campaign page shows its outcomes, contacts and calls, with links to the filtered lists', async () => {
    for (const width of [1280, 390]) {
      const page = await open(`/campaigns/${campaign.id}`, width);
      const outcomes = page.getByRole('table', { name: 'Campaign calls by outcome' });
      await expect.poll(() => outcomes.getByRole('row', { name: /Interested/ }).textContent()).toContain('1');
      const statuses = page.getByRole('table', { name: 'Campaign calls by status' });
      await expect.poll(() => statuses.textContent()).toMatch(/Voicemail\s*1/);
      const contacts = page.getByRole('table', { name: 'Campaign contacts' });
      await expect.poll(() => contacts.getByRole('row').count()).toBe(4);
      await expect.poll(() => contacts.textContent()).toContain('Ann Papaya');
      expect(await contacts.textContent()).toContain('Bob Mango');
      const calls = page.getByRole('table', { name: 'Calls' });
      await expect.poll(() => calls.getByRole('link', { name: /^Call \d+$/ }).count()).toBe(3);
      await expectAccessible(page, `campaign page at ${width} px`);
      await screenshot(page, `drilldown-campaign-${width}`);
      if (width === 1280) {
        await page.getByRole('link', { name: 'All 3 contacts of the campaign' }).click();
        await page.getByRole('heading', { name: 'Contacts', level: 2 }).waitFor();
        await expect.poll(() => page.getByRole('table', { name: 'Contacts' }).getByRole('row').count()).toBe(4);
        await page.goBack();
        await page.getByRole('link', { name: 'All 3 calls of the campaign' }).click();
        await expect.poll(() => new URL(page.url()).search).toBe(`?campaign_id=${campaign.id}`);
        await expect.poll(() => page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: /^Call \d+$/ }).count()).toBe(3);
      }
      await page.context().close();
    }
  });

  it('the calls list names each contact: its name, first and last name, else the number', async () => {
    const page = await open(`/calls?campaign_id=${campaign.id}`);
    const table = page.getByRole('table', { name: 'Calls' });
    await expect.poll(() => table.textContent()).toContain('Ann Papaya');
    const text = (await table.textContent()) ?? '';
    expect(text).toContain('Bob Mango');
    expect(text.match(/\+12125550503/g)?.length).toBe(2); // the contact column and the number column
    await page.context().close();
  });

  it('a contact opened from the contacts list shows every attempt; the call page shows the analysis and a download', async () => {
    for (const width of [1280, 390]) {
      const page = await open(`/contacts?campaign_id=${campaign.id}`, width);
      await page.getByRole('link', { name: '+12125550501' }).click();
      await page.getByRole('heading', { name: 'Ann Papaya', level: 2 }).waitFor();
      const attempts = page.getByRole('table', { name: 'Attempts' });
      await expect.poll(() => attempts.getByRole('row').count()).toBe(2);
      expect(await attempts.textContent()).toMatch(/Finished.*Interested.*20 s/);
      await expectAccessible(page, `contact page at ${width} px`);
      await screenshot(page, `drilldown-contact-${width}`);
      await attempts.getByRole('link', { name: /^Call \d+$/ }).click();
      const analysis = page.getByRole('region', { name: "Vendor's analysis" });
      await expect.poll(() => analysis.textContent()).toContain('Ann wants the papaya plan.');
      expect(await analysis.textContent()).toMatch(/Success evaluation: true.*Sentiment: positive/);
      expect(await page.getByRole('link', { name: 'Download recording' }).getAttribute('href')).toBe('https://recordings.example.test/ann.wav');
      await expectAccessible(page, `call page at ${width} px`);
      await screenshot(page, `drilldown-call-${width}`);
      await page.context().close();
    }
  });
});
