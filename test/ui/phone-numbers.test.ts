import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * Number health in Debian's Chromium: the Phone numbers page shows each number's answer rate
 * beside the account's and why a number rests; the owner ends a rest with one click and tunes the rule.
 */
let s: BrowserScene;
let rested: number;

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Spring calls' });
  const add = async (phone_number: string) => (await s.t.request({ method: 'POST', url: '/api/v1/phone-numbers/', headers: s.alice.headers, payload: { phone_number, campaign_id: campaign.id } })).json().id as number;
  rested = await add('+12125550181');
  const healthy = await add('+12125550182');
  // The worker's judgement, as it writes it (number-health.repository.ts): figures, the account's, the rest.
  const now = Date.now();
  const account = { account_calls: 80, account_answered: 32, account_short_calls: 2, judged_at: new Date(now) };
  await s.t.deps.db.insertInto('phone_number_health').values([
    { phone_number_id: rested, owner_id: s.alice.id, calls: 40, answered: 2, short_calls: 1, ...account, rested_at: new Date(now), rested_until: new Date(now + 86_400_000), rest_code: 'answer_rate', rest_reason: 'answer rate 5% vs account 40%' },
    { phone_number_id: healthy, owner_id: s.alice.id, calls: 40, answered: 30, short_calls: 1, ...account },
  ]).execute();
}, 120_000);
afterAll(async () => s?.close());

describe.skipIf(!HAS_BROWSER)('phone numbers in the browser', () => {
  it('shows why a number rests beside the account\'s figures, and the owner ends the rest', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto('/phone-numbers');
    const table = page.getByRole('table', { name: 'Phone numbers' });
    const row = table.getByRole('row', { name: /\+12125550181/ });
    await row.getByText(/^Rested until .+ because answer rate 5% vs account 40%$/).waitFor();
    await expect.poll(() => row.textContent()).toContain('5% vs account 40%');
    await table.getByRole('row', { name: /\+12125550182/ }).getByText('Healthy').waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, 'phone numbers with a rested number');
    await screenshot(page, 'phone-numbers-health');
    await row.getByRole('button', { name: 'End rest of +12125550181' }).click();
    await row.getByText('Healthy').waitFor();
    await expect.poll(async () => (await s.t.request({ method: 'GET', url: '/api/v1/phone-numbers/health', headers: s.alice.headers })).json().data
      .find((n: { phone_number_id: number }) => n.phone_number_id === rested).state).toBe('healthy');
    await page.close();
  });

  it('lets the owner change the rule, the answer-rate ratio in percent', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto('/phone-numbers');
    const form = page.getByRole('form', { name: 'Number health settings' });
    await expect.poll(() => form.getByRole('textbox', { name: /Answer rate under/ }).inputValue()).toBe('50%');
    await form.getByRole('textbox', { name: /Answer rate under/ }).fill('40');
    await form.getByRole('textbox', { name: 'Rest (hours)' }).fill('48');
    await form.getByRole('button', { name: 'Save number health' }).click();
    await page.getByText('Number health saved').waitFor();
    await page.getByText(/is rested for 48 hours/).waitFor();
    const saved = (await s.t.request({ method: 'GET', url: '/api/v1/phone-numbers/health-settings', headers: s.alice.headers })).json();
    expect(saved).toMatchObject({ enabled: true, answer_rate_ratio: 0.4, rest_hours: 48, min_calls: 30 });
    await page.close();
  });
});
