import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { seed } from '../helpers/seed.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * Text messages in Debian's Chromium against the whole service (its workers running, so a text
 * sent by hand is really sent by the simulator): the Messages page and its filters, a contact's
 * timeline and composer, a campaign's text settings with a preview.
 */
let s: BrowserScene;
let campaign: { id: number; title: string };
let contactId = 0;
let callId = 0;
const T0 = Date.now() - 3 * 3_600_000;

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Texting lemon' });
  const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: '+12125550601', status: 'finished', contact_data: { name: 'Ada Lemon' } } });
  expect(res.statusCode, res.body).toBe(200);
  contactId = res.json().id;
  // A call that reached voicemail, its follow-up that could not be delivered, and the person's answer.
  const { calls: [call] } = await seed(s.t.deps.db, { calls: [{ contact: { id: contactId, campaign_id: campaign.id, owner_id: s.alice.id }, status: 'voicemail', to_number: '+12125550601', start_time: new Date(T0), end_time: new Date(T0 + 30_000), call_duration: 30, call_type: 'outbound' }] });
  callId = call.id;
  const base = { owner_id: s.alice.id, campaign_id: campaign.id, contact_id: contactId, provider: 'sim', source: 'sms' as const };
  await s.t.deps.db.insertInto('messages').values([
    { ...base, direction: 'outbound', role_id: 'assistant', purpose: 'follow_up', call_id: callId, body: 'Hi Ada, we tried to call you about lemons.', status: 'undelivered', to_number: '+12125550601', error_code: '30003', created_at: new Date(T0 + 60_000), segments: 1, encoding: 'GSM-7' },
    { ...base, direction: 'inbound', role_id: 'contact', body: 'Call me tomorrow please', status: 'received', to_number: '+12125550100', from_number: '+12125550601', created_at: new Date(T0 + 120_000) },
  ]).execute();
}, 120_000);
afterAll(async () => s?.close());

const open = async (path: string, width = 1280): Promise<Page> => {
  const page = await s.page({ signIn: s.alice, width, bypassCSP: true });
  await page.goto(path);
  return page;
};

describe.skipIf(!HAS_BROWSER)('text messages in the browser', () => {
  it('the Messages page lists the texts with their status in words, a failure in plain words, and filters by status', async () => {
    const page = await open('/campaigns');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages', exact: true }).click();
    await page.getByRole('heading', { name: 'Messages', level: 2 }).waitFor();
    const table = page.getByRole('table', { name: 'Messages' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.textContent()).toContain('Not delivered');
    expect(await table.textContent()).toContain('the handset was unreachable (off or out of coverage)');
    expect(await table.textContent()).toContain('Received');
    await page.getByRole('textbox', { name: 'Search in texts' }).fill('TOMORROW');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await expect.poll(() => new URL(page.url()).searchParams.get('message')).toBe('TOMORROW');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('combobox', { name: 'Statuses' }).click();
    await page.getByRole('option', { name: 'Not delivered', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('status')).toEqual(['undelivered']);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await expect.poll(() => page.getByRole('status').textContent()).toBe('1 text matches the filters');
    await expectAccessible(page, 'messages page');
    await screenshot(page, 'messages-list');
  });

  it('the contact page shows calls and texts in time order, counts segments as one types, drafts and sends a text', async () => {
    const page = await open(`/contacts/${contactId}`);
    const timeline = page.getByRole('list', { name: 'Calls and texts' });
    await expect.poll(() => timeline.getByRole('listitem').count()).toBe(3);
    const items = await timeline.getByRole('listitem').allTextContents();
    expect(items[0]).toContain(`Call ${callId}`);
    expect(items[1]).toContain('we tried to call you about lemons');
    expect(items[1]).toContain('the handset was unreachable');
    expect(items[2]).toContain('Call me tomorrow please');
    const box = page.getByRole('textbox', { name: 'Text message' });
    await box.fill('Hello Ada');
    await expect.poll(() => page.getByText(/9 of 1600 characters · GSM-7 · 1 segment$/).count()).toBe(1);
    await box.fill(`Lemons 🍋 ${'x'.repeat(70)}`);
    await expect.poll(() => page.getByText(/UCS-2 · 2 segments$/).count()).toBe(1);
    await page.getByRole('button', { name: 'Draft with AI' }).click();
    await expect.poll(() => box.inputValue()).toMatch(/^Hi Ada/);
    expect(await page.getByText('Draft by the template').count()).toBe(1);
    await box.fill('See you tomorrow at ten, Ada.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Text queued').waitFor();
    // The notification can be closed by a named button (it also closes by itself after 4 s); closed, it
    // leaves the accessibility check below to the page (axe read its fade-in as low contrast).
    await page.getByRole('button', { name: 'Close notification' }).click();
    await expect.poll(() => box.inputValue()).toBe('');
    await page.getByText('Text queued').waitFor({ state: 'detached' });
    // The sender (running with the service) sends it through the simulator; the timeline shows it.
    await expect.poll(() => timeline.getByRole('listitem').count(), { timeout: 30_000 }).toBe(4);
    expect(await timeline.getByRole('listitem').last().textContent()).toContain('See you tomorrow at ten, Ada.');
    expect(await timeline.getByRole('listitem').last().textContent()).toContain('By hand');
    await expectAccessible(page, 'contact page with its timeline');
    await screenshot(page, 'messages-contact');
    const jobs = await s.t.request({ method: 'GET', url: `/api/v1/message-jobs/?contact_id=${contactId}`, headers: s.alice.headers });
    expect(jobs.json().data[0]).toMatchObject({ purpose: 'manual', body: 'See you tomorrow at ten, Ada.' });
  });

  it('the campaign page edits its text settings, refuses an unknown placeholder under the field, and previews a text', async () => {
    const page = await open(`/campaigns/${campaign.id}`);
    const form = page.getByRole('form', { name: 'Text message settings' });
    await form.getByText('Automatic AI messages is off').waitFor();
    const template = form.getByRole('textbox', { name: 'Text template' });
    await template.fill('Hi {{contact.name}}, {{user.email}}');
    await form.getByRole('button', { name: 'Save text settings' }).click();
    await expect.poll(() => form.getByText(/placeholder \{\{user\.email\}\} must be/).count()).toBe(1);
    await template.fill('Hi {{contact.name}}, lemons from {{campaign.title}}!');
    await form.getByRole('button', { name: 'Preview a text' }).click();
    const preview = form.getByLabel('Preview');
    await expect.poll(() => preview.textContent()).toContain('Hi Ada Lemon, lemons from Texting lemon!');
    expect(await preview.textContent()).toContain('GSM-7 · 1 segment');
    // Checked before saving: the saved notification is Mantine's own, tested elsewhere.
    await expectAccessible(page, 'campaign page with its text settings');
    await screenshot(page, 'messages-campaign-settings');
    await form.getByRole('textbox', { name: 'Minutes after the call' }).fill('15');
    await form.getByRole('button', { name: 'Save text settings' }).click();
    await page.getByText('Text settings saved').waitFor();
    const saved = (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}/messaging`, headers: s.alice.headers })).json();
    expect(saved).toMatchObject({ template: 'Hi {{contact.name}}, lemons from {{campaign.title}}!', delay_minutes: 15 });
  });
});
