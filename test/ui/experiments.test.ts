import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, nextPhone } from '../helpers/seed.ts';
import { mkdirSync } from 'node:fs';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, SCREENSHOTS, type BrowserScene } from './browser-scene.ts';
import { choose, labelled } from './contacts-helpers.ts';

/**
 * Experiments in Chromium: the owner creates one on the campaign page (a new prompt text against
 * the approved prompt), starts it, reads its results on seeded calls (the rates, the confidence in
 * words, the stopping rule's winner) and makes the winner live; checked through the API.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene({ DIALER_TICK_MS: '3600000' });
}, 60_000);
afterAll(async () => s?.close());

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await s.t.request({ method, url, headers: s.alice.headers, ...(payload && { payload }) });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const settled = (page: Page) => page.evaluate(() => {
  const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
  return Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => null)));
});

/** Ended calls of each variant: `interested` of `contacts` contacts interested, each contact called once. */
async function seedCalls(campaignId: number, variantId: number, contacts: number, interested: number) {
  const { contacts: rows } = await seed(s.t.deps.db, { contacts: Array.from({ length: contacts }, () => ({ campaign: { id: campaignId, owner_id: s.alice.id }, phone_number: nextPhone(), status: 'finished' })) });
  await seed(s.t.deps.db, {
    calls: rows.map((ct, i) => ({
      contact: { id: ct.id, campaign_id: campaignId, owner_id: s.alice.id }, experiment_variant_id: variantId, status: 'finished', action_status: i < interested ? 'interested' : null,
      call_duration: i < contacts / 2 ? 45 : 0, cost: 0.2, call_type: 'outbound', to_number: ct.phone_number, start_time: new Date(Date.now() - 3_600_000),
    })),
  });
}

describe.skipIf(!HAS_BROWSER)('experiments on the dashboard', () => {
  it('creates and starts an experiment, explains its results, and makes the winner live', async () => {
    const campaign = await api('POST', '/api/v1/campaigns/', { title: 'Experimenting', campaign_type: 'Outbound', campaign_data: { prompt: 'Hello, this is the old opener.' } });
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    const section = page.getByRole('group', { name: 'Experiments' });
    await section.getByRole('button', { name: 'New experiment' }).click();
    const form = page.getByRole('form', { name: 'New experiment' });
    await labelled(form, 'Name').fill('Warmer opener');
    await labelled(form, 'Minimum calls per variant').fill('100');
    const variant = form.getByRole('group', { name: 'Variant A' });
    await labelled(variant, 'Label').fill('Warm');
    await choose(page, variant, 'Test', 'A new prompt text');
    await labelled(variant, 'Prompt text').fill('Hi! Lovely to reach you, this is the new opener.');
    await settled(page);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await section.screenshot({ path: new URL('experiment-form-1280.png', SCREENSHOTS).pathname });
    await form.getByRole('button', { name: 'Create experiment' }).click();
    await section.getByRole('link', { name: 'Warmer opener' }).waitFor();
    await section.getByRole('button', { name: 'Start Warmer opener' }).click();
    await section.getByRole('button', { name: 'Stop Warmer opener' }).waitFor();
    const [experiment] = (await api('GET', `/api/v1/campaigns/${campaign.id}/experiments`)).data;
    expect(experiment).toMatchObject({ name: 'Warmer opener', status: 'running', min_calls_per_variant: 100 });
    const [control, warm] = experiment.variants;
    expect(warm).toMatchObject({ label: 'Warm', kind: 'prompt', share: 0.5 });

    // 150 contacts each: the control 15 interested (10%), Warm 36 (24%): Warm wins.
    await seedCalls(campaign.id, control.id, 150, 15);
    await seedCalls(campaign.id, warm.id, 150, 36);
    await section.getByRole('link', { name: 'Warmer opener' }).click();
    await page.waitForURL(`**/campaigns/${campaign.id}/experiments/${experiment.id}`);
    const table = page.getByRole('table', { name: 'Results per variant' });
    await table.getByRole('row', { name: /Warm/ }).waitFor();
    const warmRow = await table.getByRole('row', { name: /^Warm/ }).innerText();
    expect(warmRow).toContain('24.0% (36)');
    expect(warmRow).toContain('50.0%');
    expect(await table.getByRole('row', { name: /^Control/ }).innerText()).toContain('10.0% (15)');
    const state = page.getByRole('status').filter({ hasText: 'is the winner' });
    expect(await state.innerText()).toMatch(/Warm is the winner: every variant has at least 100 calls/);
    expect(await page.getByText('Chance to be best').last().isVisible()).toBe(true);
    await page.getByText(/how often a gap this large would appear by chance/).waitFor();
    await settled(page);
    await expectAccessible(page, 'experiment results');
    await screenshot(page, 'experiment-results-1280');

    await page.getByRole('button', { name: 'Make the winner live: Warm' }).click();
    await page.getByRole('status').filter({ hasText: 'Warm is live' }).waitFor();
    const after = await api('GET', `/api/v1/campaigns/${campaign.id}`);
    const live = after.prompt_history.find((e: { status: string }) => e.status === 'approved');
    expect(live.prompt_data.prompt).toBe('Hi! Lovely to reach you, this is the new opener.');
    expect(after.campaign_data.prompt).toBe('Hi! Lovely to reach you, this is the new opener.');
    expect((await api('GET', `/api/v1/campaigns/${campaign.id}/experiments/${experiment.id}`)).status).toBe('stopped');
    await page.context().close();

    // At 390 px the table scrolls sideways inside the page; the explanation reads in one column.
    const phone = await s.page({ signIn: s.alice, bypassCSP: true, width: 390 });
    await phone.goto(`/campaigns/${campaign.id}/experiments/${experiment.id}`);
    await phone.getByRole('table', { name: 'Results per variant' }).waitFor();
    await phone.getByRole('status').filter({ hasText: 'Warm is live' }).waitFor();
    const overflow = await phone.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
      return doc.documentElement.scrollWidth - doc.documentElement.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await settled(phone);
    await screenshot(phone, 'experiment-results-390');
    await phone.goto(`/campaigns/${campaign.id}`);
    await phone.getByRole('group', { name: 'Experiments' }).getByRole('link', { name: 'Warmer opener' }).waitFor();
    await settled(phone);
    await phone.getByRole('group', { name: 'Experiments' }).screenshot({ path: new URL('experiment-section-390.png', SCREENSHOTS).pathname });
    await phone.context().close();
  }, 120_000);
});
