import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { seed } from '../helpers/seed.ts';
import { choose } from './ops-helpers.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * Call scores in Debian's Chromium against the whole service: a scored call's page shows its
 * score, each answer with its reason and the problems found; the calls list filtered by score
 * shows exactly the API's answer; the owner switches a campaign's scorecard on.
 * The scores are written as the scoring worker writes them (its judging is tested in test/call-scores.test.ts).
 */
let s: BrowserScene;
let campaign: { id: number; title: string };
let high = 0;
let low = 0;

const CARD = {
  criteria: [
    { key: 'goal', question: 'Did the person agree to a callback?', type: 'boolean', weight: 3 },
    { key: 'clarity', question: 'How clear was the agent?', type: 'scale', weight: 1 },
  ],
  tags: ['dead_air', 'frustrated'],
};

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene({ DIALER_TICK_MS: '3600000' });
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Scored campaign' });
  const owner = { id: campaign.id, owner_id: s.alice.id };
  const { contacts } = await seed(s.t.deps.db, { contacts: [{ campaign: owner, status: 'finished' }, { campaign: owner, status: 'finished' }] });
  const transcript = [{ role: 'assistant', text: 'Can I call you back tomorrow?' }, { role: 'user', text: 'Yes, after ten.' }];
  const { calls } = await seed(s.t.deps.db, {
    calls: contacts.map((c) => ({ contact: { id: c.id, campaign_id: campaign.id, owner_id: s.alice.id }, status: 'finished', call_data: { transcript }, start_time: new Date(), end_time: new Date() })),
  });
  [high, low] = calls.map((c) => c.id) as [number, number];
  const answers = (goal: boolean, clarity: number) => JSON.stringify({
    goal: { answer: goal, value: goal ? 1 : 0, weight: 3, reason: goal ? 'The person agreed to tomorrow after ten.' : 'The person declined.' },
    clarity: { answer: clarity, value: (clarity - 1) / 4, weight: 1, reason: `Clarity ${clarity}: short, clear questions.` },
  });
  await s.t.deps.db.insertInto('call_scores').values([
    { call_id: high, owner_id: s.alice.id, campaign_id: campaign.id, status: 'scored', score: 93.8, answers: answers(true, 4), tags: ['dead_air'], card: JSON.stringify(CARD), method: 'llm:judge-model', scored_at: new Date() },
    { call_id: low, owner_id: s.alice.id, campaign_id: campaign.id, status: 'scored', score: 12.5, answers: answers(false, 3), tags: ['frustrated'], card: JSON.stringify(CARD), method: 'llm:judge-model', scored_at: new Date() },
  ]).execute();
}, 60_000);
afterAll(async () => s?.close());

async function get(url: string) {
  const res = await s.t.request({ method: 'GET', url, headers: s.alice.headers });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const shownIds = (page: Page) => page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: /^Call \d+$/ }).allTextContents()
  .then((texts) => texts.map((t) => Number(t.replace('Call ', ''))));

describe.skipIf(!HAS_BROWSER)('call scores in the browser', () => {
  it('shows a scored call\'s score, each answer with its reason and the problems found (1280 and 390 px)', async () => {
    for (const width of [1280, 390]) {
      const page = await s.page({ signIn: s.alice, bypassCSP: true, width });
      await page.goto(`/calls/${high}`);
      const card = page.getByLabel('Call score');
      await card.waitFor();
      await expect.poll(() => card.getByLabel('Score value').textContent()).toBe('93.8 / 100');
      const rows = card.getByRole('table', { name: 'Scorecard answers' }).getByRole('row');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.nth(1).textContent()).toContain('Did the person agree to a callback?');
      expect(await rows.nth(1).textContent()).toContain('Yes');
      expect(await rows.nth(1).textContent()).toContain('The person agreed to tomorrow after ten.');
      expect(await rows.nth(2).textContent()).toContain('4 / 5');
      expect(await card.getByLabel('Problems found').textContent()).toBe('Dead air');
      await expectAccessible(page, `call score at ${width}`);
      await screenshot(page, `call-score-${width}`);
      await page.context().close();
    }
  });

  it('filters the calls list by score and by problem, as the API answers', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.goto('/calls');
    await page.getByRole('heading', { name: 'Calls', level: 2 }).waitFor();
    await page.getByRole('button', { name: /More filters/ }).click();
    await page.getByLabel('Score from (0–100)').fill('50');
    await page.waitForURL(/score_min=50/);
    const api = (await get('/api/v1/calls/?score_min=50&limit=25')).data.map((c: { id: number }) => c.id);
    expect(api).toEqual([high]);
    await expect.poll(() => shownIds(page)).toEqual(api);
    await page.getByLabel('Score from (0–100)').fill('');
    await page.getByRole('combobox', { name: 'Problem found' }).click();
    await page.getByRole('option', { name: 'Frustrated' }).click();
    await page.waitForURL(/score_tag=frustrated/);
    await expect.poll(() => shownIds(page)).toEqual([low]);
    await screenshot(page, 'calls-score-filter-1280');
    await page.context().close();
  });

  it('shows the campaign\'s scores in analytics: average, distribution, by prompt version', async () => {
    const page = await s.page({ signIn: s.alice, width: 1280 });
    await page.goto('/analytics');
    await choose(page, 'Campaigns', campaign.title);
    await page.keyboard.press('Escape');
    const panel = page.getByLabel('Call scores');
    await panel.waitFor();
    const summary = await get(`/api/v1/campaigns/${campaign.id}/scores/summary`);
    expect(summary.average).toBe(Math.round(((93.8 + 12.5) / 2) * 10) / 10);
    await expect.poll(() => panel.getByLabel('Average score').textContent()).toBe(String(summary.average));
    const versions = panel.getByRole('table', { name: 'Scores by prompt version' }).getByRole('row');
    expect(await versions.nth(1).textContent()).toContain('no prompt history');
    await panel.screenshot({ path: new URL('../../test-results/screenshots/analytics-scores-1280.png', import.meta.url).pathname });
    await page.context().close();
  });

  it('lets the owner switch the campaign\'s scorecard on and add a criterion; a bad one is refused next to its field', async () => {
    const page = await s.page({ signIn: s.alice, width: 1280 });
    await page.goto(`/campaigns/${campaign.id}`);
    const form = page.getByRole('form', { name: 'Scorecard' });
    await form.waitFor();
    await form.getByRole('switch', { name: 'Score every finished call' }).check({ force: true });
    await form.getByRole('button', { name: 'Add a criterion' }).click();
    const added = form.getByLabel('Criterion 5');
    await added.getByLabel('Question').fill('Did the agent offer a callback time?');
    await added.getByLabel('Key').fill('reason_bad');
    await form.getByRole('button', { name: 'Save scorecard' }).click();
    await expect.poll(() => added.getByText('a key may not start with reason_ or tag_').count()).toBe(1);
    expect((await get(`/api/v1/campaigns/${campaign.id}/scorecard`)).is_default).toBe(true);
    await added.getByLabel('Key').fill('offers_time');
    await form.getByRole('button', { name: 'Save scorecard' }).click();
    await form.getByRole('status').filter({ hasText: 'Scorecard saved.' }).waitFor();
    const card = await get(`/api/v1/campaigns/${campaign.id}/scorecard`);
    expect(card.enabled).toBe(true);
    expect(card.criteria.at(-1)).toEqual({ key: 'offers_time', question: 'Did the agent offer a callback time?', type: 'boolean', weight: 1 });
    await form.screenshot({ path: new URL('../../test-results/screenshots/scorecard-editor-1280.png', import.meta.url).pathname });
    await page.context().close();
    // On a phone the rows wrap: question, answer type and weight stay readable.
    const phone = await s.page({ signIn: s.alice, width: 390, bypassCSP: true });
    await phone.goto(`/campaigns/${campaign.id}`);
    const small = phone.getByRole('form', { name: 'Scorecard' });
    await small.getByLabel('Criterion 5').getByLabel('Key').waitFor();
    expect(await small.getByLabel('Criterion 5').getByLabel('Key').inputValue()).toBe('offers_time');
    await expectAccessible(phone, 'scorecard editor at 390');
    await small.screenshot({ path: new URL('../../test-results/screenshots/scorecard-editor-390.png', import.meta.url).pathname });
    await phone.context().close();
  });
});
