import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * An operator steering a simulated call from its page in Debian's Chromium: the three actions
 * show only while the call is in progress, each asks for a confirmation, a bad number is shown
 * under its field, and the page follows the call to its end.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  // Slow enough that a ten-minute simulated call stays in progress while the test clicks.
  s = await browserScene({ SIM_TIME_SCALE: '10' });
}, 60_000);
afterAll(async () => s?.close());

const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await s.t.request({ method, url, headers: s.alice.headers, ...(payload && { payload }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function callInProgress(): Promise<number> {
  const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Operator desk', call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' });
  await api('POST', '/api/v1/contacts/', { campaign_id: campaign.id, phone_number: '+12125550611', status: 'new', contact_data: { name: 'Ann', _sim: { status: 'finished', duration: 600 } } });
  await api('POST', `/api/v1/campaigns/enqueue_calls/${campaign.id}`);
  await expect.poll(async () => (await api('GET', `/api/v1/calls/?campaign_id=${campaign.id}`)).data[0]?.status, { timeout: 20_000 }).toBe('in progress');
  return (await api('GET', `/api/v1/calls/?campaign_id=${campaign.id}`)).data[0].id;
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

describe.skipIf(!HAS_BROWSER)('the call page\'s operator actions', () => {
  it('whispers, refuses a bad transfer number under its field, ends the call, then hides the actions', async () => {
    const id = await callInProgress();
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/calls/${id}`);

    await page.getByRole('button', { name: 'Whisper…' }).click();
    await dialog(page, 'Whisper to the AI').getByLabel('Guidance').fill('Offer the spring discount.');
    await expectAccessible(page, 'the whisper dialog');
    await page.getByRole('button', { name: 'Send guidance' }).click();
    await dialog(page, 'Whisper to the AI').waitFor({ state: 'hidden' });
    expect((await api('GET', `/api/v1/calls/${id}`)).call_data.whispers).toMatchObject([{ message: 'Offer the spring discount.', user_id: s.alice.id }]);

    await page.getByRole('button', { name: 'Transfer…' }).click();
    await dialog(page, 'Transfer this call').getByLabel('Phone number').fill('2125550123');
    await page.getByRole('button', { name: 'Transfer the call' }).click();
    await expect.poll(() => dialog(page, 'Transfer this call').getByText('Write the number with + and the country code, e.g. +12125550123').count()).toBe(1);
    // The shape of E.164 but no such number: the API's 422, under the field.
    await dialog(page, 'Transfer this call').getByLabel('Phone number').fill('+10000000000');
    await page.getByRole('button', { name: 'Transfer the call' }).click();
    await expect.poll(() => dialog(page, 'Transfer this call').getByText('\'+10000000000\' is not a valid phone number in E.164').count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'End call' }).click();
    await expect.poll(() => dialog(page, 'End this call?').getByText('recorded as ended by an operator').count()).toBe(1);
    await screenshot(page, 'call-controls-end');
    await page.getByRole('button', { name: 'End the call' }).click();
    await page.getByText('ended by operator').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'End call' }).count()).toBe(0);
    expect(await api('GET', `/api/v1/calls/${id}`)).toMatchObject({ status: 'finished', call_ended_by: 'HUMAN', call_ended_by_reason: 'ended by operator' });
  }, 90_000);
});
