import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../ui/src/format/money.ts';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { seed } from '../helpers/seed.ts';
import { browserScene, HAS_BROWSER, type BrowserScene } from './browser-scene.ts';
import { choose, responseTo } from './ops-helpers.ts';

/**
 * The analytics page in Debian's Chromium against the whole service: every figure it shows is
 * the API's answer to the very request the page made, asked again directly.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Analytics spring' });
  const owner = { id: campaign.id, owner_id: s.alice.id };
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  // Four calls in the last days (the page's default "Last 30 days") and two a month or more before (the previous period).
  const calls = [
    { status: 'finished', action_status: 'interested', call_duration: 30, cost: 0.75, start_time: ago(1) },
    { status: 'finished', action_status: null, call_duration: 45, cost: 1.2, start_time: ago(26) },
    { status: 'finished', action_status: 'scheduled', call_duration: 0, cost: null, start_time: ago(75) },
    { status: 'failed', action_status: null, call_duration: null, cost: 0.05, start_time: ago(50) },
    { status: 'finished', action_status: 'interested', call_duration: 60, cost: 2, start_time: ago(24 * 35) },
    { status: 'finished', action_status: null, call_duration: 12, cost: 0.3, start_time: ago(24 * 45) },
  ];
  const { contacts } = await seed(s.t.deps.db, {
    contacts: calls.map((_, i) => ({ campaign: owner, phone_number: `+1212555${String(7100 + i)}`, status: 'finished' })),
    calls: calls.map((c, i) => ({ contact: i, call_type: 'outbound', ...c })),
  });
  // Texts: contact 0 (answered) texted and replied; contact 3 (its call failed) got a text that failed
  // and replied anyway, so it was reached by text after an unanswered call; one text a month before.
  const texts = [
    { contact: 0, direction: 'outbound', status: 'delivered', cost: 0.04, hoursAgo: 2 },
    { contact: 0, direction: 'inbound', status: 'received', cost: null, hoursAgo: 1.5 },
    { contact: 3, direction: 'outbound', status: 'failed', cost: null, hoursAgo: 49 },
    { contact: 3, direction: 'inbound', status: 'received', cost: null, hoursAgo: 48 },
    { contact: 4, direction: 'outbound', status: 'delivered', cost: 0.1, hoursAgo: 24 * 35 },
  ] as const;
  const now = s.t.deps.clock.now().getTime();
  await s.t.deps.db.insertInto('messages').values(texts.map((m, i) => {
    const at = new Date(now - m.hoursAgo * 3_600_000);
    const phone = contacts[m.contact]!.phone_number;
    const out = m.direction === 'outbound';
    return {
      owner_id: s.alice.id, campaign_id: campaign.id, contact_id: contacts[m.contact]!.id, direction: m.direction, role_id: out ? 'assistant' as const : 'contact' as const,
      source: 'sms' as const, purpose: out ? 'follow_up' as const : null, body: out ? 'Sorry we missed you' : 'Call me later', status: m.status,
      to_number: out ? phone : '+12125550100', from_number: out ? '+12125550100' : phone, provider: 'sim',
      provider_message_id: out && m.status !== 'failed' ? `SMui${i}` : null, cost: m.cost, created_at: at, updated_at: at,
    };
  })).execute();
}, 60_000);
afterAll(async () => s?.close());

type Totals = Record<string, number | null>;
const FIGURES: [key: string, label: string, kind: 'count' | 'rate' | 'plain' | 'money'][] = [
  ['calls', 'Calls', 'count'], ['answered', 'Answered', 'count'], ['finished', 'Finished', 'count'], ['successful', 'Successful', 'count'],
  ['success_rate', 'Success rate (%)', 'rate'], ['total_duration', 'Total duration (s)', 'plain'], ['average_duration', 'Average duration (s)', 'plain'],
  ['total_cost', 'Total cost', 'money'], ['average_cost', 'Average cost', 'money'], ['unique_contacts', 'Unique contacts', 'count'],
];
/** How a value of the API reads on the page: the number as answered, a rate as a percentage with 2 decimals, money in the account's currency (USD by default), null as n/a. */
const reads = (kind: string, v: number | null | undefined) =>
  (v == null ? 'n/a' : kind === 'rate' ? `${(v * 100).toFixed(2)}%` : kind === 'money' ? formatMoney(v, 'USD', 'en-US') : String(v));

/** The same request the page made, asked of the API directly with Alice's key. */
async function askApi(url: string) {
  const { pathname, search } = new URL(url);
  const res = await s.t.request({ method: 'GET', url: `${pathname}${search}`, headers: s.alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const figure = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const TEXT_FIGURES: [key: string, label: string, kind: 'count' | 'money'][] = [
  ['sent', 'Texts sent', 'count'], ['delivered', 'Texts delivered', 'count'], ['failed', 'Texts failed', 'count'], ['replies', 'Replies', 'count'],
  ['replied_contacts', 'Contacts who replied', 'count'], ['opt_outs_by_text', 'Opt-outs by text', 'count'], ['cost', 'Text cost', 'money'],
  ['reached_after_unanswered_calls', 'Reached by text after unanswered calls', 'count'],
];
const textFigure = (page: Page, label: string) => page.getByRole('region', { name: 'Text messages', exact: true }).getByRole('group', { name: label, exact: true });

async function openAnalytics(page: Page) {
  const response = await responseTo(page, '/api/v1/analytics/detailed', {}, async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics', exact: true }).click();
  });
  await page.getByRole('heading', { name: 'Headline figures' }).waitFor();
  return response;
}

describe.skipIf(!HAS_BROWSER)('analytics in the browser', () => {
  it('shows the headline figures the API answers for the same request', async () => {
    const page = await s.page({ signIn: s.alice });
    const response = await openAnalytics(page);
    expect(response.status()).toBe(200);
    const shownAnswer = await response.json();
    const api = await askApi(response.url());
    expect(api.totals).toEqual(shownAnswer.totals);
    // The seeded calls of the last 30 days, so the comparison is not of two empty reports.
    expect(api.totals).toMatchObject({ calls: 4, finished: 3, total_duration: 75, total_cost: 2 });
    for (const [key, label, kind] of FIGURES) {
      const group = figure(page, label);
      expect(await group.count(), label).toBe(1);
      expect(await group.locator('p').first().textContent(), label).toBe(reads(kind, (api.totals as Totals)[key]));
    }
    expect(await page.getByText(/^Previous period:/).count()).toBe(0);
    await page.context().close();
  });

  it('shows the text messages card the API answers for the same request', async () => {
    const page = await s.page({ signIn: s.alice });
    const response = await openAnalytics(page);
    const api = await askApi(response.url());
    expect(api.texts).toEqual({ sent: 1, delivered: 1, failed: 1, replies: 2, replied_contacts: 2, opt_outs_by_text: 0, cost: 0.04, reached_after_unanswered_calls: 1 });
    for (const [key, label, kind] of TEXT_FIGURES) {
      const group = textFigure(page, label);
      expect(await group.count(), label).toBe(1);
      expect(await group.locator('p').first().textContent(), label).toBe(reads(kind, (api.texts as Totals)[key]));
    }
    await page.context().close();
  });

  it('follows Granularity and Metric in the trend, and its values table matches /trends', async () => {
    const page = await s.page({ signIn: s.alice });
    await openAnalytics(page);
    const byWeek = await responseTo(page, '/api/v1/analytics/trends', { granularity: 'week', metric: 'calls' }, () => choose(page, 'Granularity', 'Week'));
    const weekly = await askApi(byWeek.url());
    expect(weekly.granularity).toBe('week');
    expect(weekly.total).toBe(4);
    await page.getByRole('figure', { name: 'Trend of Calls per week', exact: true }).waitFor();
    await page.getByText(`Calls per week, total: ${weekly.total}`, { exact: true }).waitFor();

    const cost = await responseTo(page, '/api/v1/analytics/trends', { granularity: 'week', metric: 'cost' }, () => choose(page, 'Metric', 'Cost'));
    const costs = await askApi(cost.url());
    expect(costs.total).toBe(2);
    await page.getByRole('figure', { name: 'Trend of Cost per week', exact: true }).waitFor();
    await page.getByText(`Cost per week, total: ${formatMoney(costs.total, 'USD', 'en-US')}`, { exact: true }).waitFor();
    expect(await page.getByRole('figure', { name: 'Trend of Calls per week' }).count()).toBe(0);

    const daily = await responseTo(page, '/api/v1/analytics/trends', { granularity: 'day', metric: 'cost' }, () => choose(page, 'Granularity', 'Day'));
    const days = await askApi(daily.url());
    expect(days.buckets.length).toBeGreaterThanOrEqual(30);
    await page.getByRole('figure', { name: 'Trend of Cost per day', exact: true }).waitFor();
    await page.getByText(`Cost per day, total: ${formatMoney(days.total, 'USD', 'en-US')}`, { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Show trend values' }).click();
    const table = page.getByRole('table', { name: 'Trend values' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Bucket start', 'Cost']);
    const cells = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent ?? ''));
    expect(cells).toEqual(days.buckets.map((b: { value: number }) => formatMoney(b.value, 'USD', 'en-US')));
    expect(cells.filter((c) => c !== '$0.00').length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Hide trend values' }).click();
    await expect.poll(() => table.count()).toBe(0);
    await page.context().close();
  });

  it('shows the previous period\'s figures and the change when comparing', async () => {
    const page = await s.page({ signIn: s.alice });
    await openAnalytics(page);
    const compared = await responseTo(page, '/api/v1/analytics/detailed', { compare_with_previous: 'true' }, () => page.getByRole('switch', { name: 'Compare with previous period' }).click());
    const api = await askApi(compared.url());
    expect(api.previous.totals).toMatchObject({ calls: 2, total_duration: 72 });
    await page.getByText(/previous period: .+ to .+/).waitFor();
    for (const [key, label, kind] of FIGURES) {
      const group = figure(page, label);
      expect(await group.getByText(/^Previous period:/).textContent(), label).toBe(`Previous period: ${reads(kind, (api.previous.totals as Totals)[key])}`);
      expect(await group.getByText(/^Change:/).count(), label).toBe(1);
    }
    expect(await figure(page, 'Calls').getByText(/^Change:/).textContent()).toBe(`Change: +${api.change.calls.absolute} (+${api.change.calls.percent}%)`);
    expect(api.previous.texts).toMatchObject({ sent: 1, cost: 0.1 });
    for (const [key, label, kind] of TEXT_FIGURES) {
      expect(await textFigure(page, label).getByText(/^Previous period:/).textContent(), label).toBe(`Previous period: ${reads(kind, (api.previous.texts as Totals)[key])}`);
    }
    expect(await textFigure(page, 'Text cost').getByText(/^Change:/).textContent()).toBe(`Change: ${formatMoney(-0.06, 'USD', 'en-US')} (-60%)`);
    expect(await textFigure(page, 'Replies').getByText(/^Change:/).textContent()).toBe('Change: +2 (n/a %)');
    await page.getByRole('switch', { name: 'Compare with previous period' }).click();
    await expect.poll(() => page.getByText(/^Previous period:/).count()).toBe(0);
    await page.context().close();
  });
});
