import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type ReceivedRequest, type Receiver } from '../fakes/webhook-receiver.ts';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, HAS_BROWSER, type BrowserScene } from './browser-scene.ts';
import { choose, describedBy, parseCurl } from './ops-helpers.ts';

/**
 * The integrations page in Debian's Chromium against the whole service, with a real webhook
 * receiver on 127.0.0.1 (the scene allows private networks): what the page shows is what the
 * receiver got and answered.
 */
let s: BrowserScene;
let receiver: Receiver;
let campaign: { id: number; title: string };
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  receiver = await startReceiver();
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Integrations autumn' });
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

/** Standard Webhooks verification, from the published algorithm: HMAC-SHA256 of "id.timestamp.body" with the secret's base64 key. */
function signedWith(secret: string, req: ReceivedRequest): boolean {
  const expected = createHmac('sha256', Buffer.from(secret.split('_')[1]!, 'base64'))
    .update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`).digest('base64');
  return String(req.headers['webhook-signature'] ?? '').split(' ').includes(`v1,${expected}`);
}

async function openIntegrations(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations', exact: true }).click();
  await page.getByRole('heading', { name: 'Integrations', level: 2 }).waitFor();
}

async function fillWebhook(page: Page, name: string, url: string) {
  await page.getByRole('button', { name: 'New webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'New webhook' });
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill(url);
  await choose(page, 'Campaigns', campaign.title, dialog);
  await page.keyboard.press('Escape'); // closes the campaign list, not the dialog
  await dialog.getByRole('textbox', { name: 'Request schema', exact: true }).fill('name - the caller\'s name\ninterested - did the caller want a follow-up');
  return dialog;
}

const webhookCount = async () => (await s.t.request({ method: 'GET', url: '/api/v1/integrations/webhooks/', headers: s.alice.headers })).json().count as number;

describe.skipIf(!HAS_BROWSER)('integrations in the browser', () => {
  it('creates a webhook, shows its secret once, test-fires it and redelivers the test', async () => {
    const page = await s.page({ signIn: s.alice });
    await openIntegrations(page);
    const dialog = await fillWebhook(page, 'CRM hook', `${receiver.url}/crm`);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const shown = page.getByRole('alert').filter({ hasText: 'Webhook CRM hook created: its signing secret' });
    await shown.waitFor();
    const secret = (await shown.locator('code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /CRM hook/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`POST ${receiver.url}/crm`);
    // Campaign titles arrive in a request of their own, after the row.
    await expect.poll(() => row.textContent()).toContain(campaign.title);

    // The receiver's own answer is what the page reports.
    receiver.respond = () => ({ status: 202, body: '{"accepted":"by the fake CRM"}' });
    const before = receiver.requests.length;
    await page.getByRole('button', { name: 'Send test to CRM hook' }).click();
    const tested = page.getByRole('alert').filter({ hasText: 'Test of CRM hook' });
    await tested.waitFor();
    expect(await tested.textContent()).toMatch(/Test of CRM hook: sent/);
    expect(await tested.textContent()).toMatch(/Receiver answered: HTTP 202 in \d+ ms/);
    expect(await tested.locator('pre').textContent()).toBe('{"accepted":"by the fake CRM"}');
    expect(receiver.requests.length).toBe(before + 1);
    const first = receiver.requests.at(-1)!;
    expect(first).toMatchObject({ method: 'POST', url: '/crm' });
    expect(signedWith(secret, first), 'signed with the secret shown').toBe(true);

    // The delivery log lists the test; "Redeliver" sends it again.
    await page.getByRole('button', { name: 'Deliveries of CRM hook' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries of CRM hook' });
    const deliveries = log.getByRole('table', { name: 'Deliveries' });
    const testRow = deliveries.getByRole('row').filter({ hasText: 'Test' });
    await testRow.first().waitFor();
    expect(await testRow.count()).toBe(1);
    expect(await testRow.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['Test', 'Sent', '202']));
    await testRow.getByRole('button', { name: /^Redeliver delivery \d+$/ }).click();
    await log.getByRole('status').filter({ hasText: 'Redelivered: sent, HTTP 202' }).waitFor();
    await expect.poll(() => receiver.requests.length).toBe(before + 2);
    const again = receiver.requests.at(-1)!;
    expect(again).toMatchObject({ method: 'POST', url: '/crm', body: first.body });
    expect(signedWith(secret, again)).toBe(true);
    await page.keyboard.press('Escape');

    // Shown once: after a reload the secret is gone from the page.
    await page.reload();
    await page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /CRM hook/ }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await page.context().close();
  });

  it('shows a 422 next to the URL field and creates nothing', async () => {
    const page = await s.page({ signIn: s.alice });
    await openIntegrations(page);
    const count = await webhookCount();
    const dialog = await fillWebhook(page, 'Broken hook', 'not a url');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/integrations/webhooks/') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const response = await answer;
    expect(response.status()).toBe(422);
    const problem = await response.json();
    const urlField = dialog.getByRole('textbox', { name: 'URL', exact: true });
    await expect.poll(() => urlField.getAttribute('aria-invalid')).toBe('true');
    const message = await dialog.locator(`#${await urlField.getAttribute('id')}-error`).textContent();
    expect(message).toBeTruthy();
    expect(JSON.stringify(problem)).toContain(message!);
    expect(await describedBy(urlField)).toContain(message!);
    // Only the URL is wrong: no other field shows an error, and the dialog stays open with what was typed.
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBe(1);
    expect(await urlField.inputValue()).toBe('not a url');
    expect(await webhookCount()).toBe(count);
    expect(await page.getByRole('row', { name: /Broken hook/ }).count()).toBe(0);
    await page.context().close();
  });

  it('creates a contact-creation integration whose token is shown once and whose curl example creates a contact', async () => {
    const page = await s.page({ signIn: s.alice });
    await openIntegrations(page);
    await page.getByRole('tab', { name: 'Contact creation' }).click();
    await page.getByRole('textbox', { name: 'Integration name', exact: true }).fill('Website form');
    await choose(page, 'Campaigns', campaign.title);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create integration' }).click();
    const shown = page.getByRole('alert').filter({ hasText: 'Integration created: its token' });
    await shown.waitFor();
    const token = (await shown.locator('code').first().textContent())!;
    expect(token).toMatch(/^vci_/);
    const row = page.getByRole('table', { name: 'Contact-creation integrations' }).getByRole('row', { name: /Website form/ });
    await row.waitFor();
    // The campaign's title comes in its own request after the row (its id shows meanwhile).
    await expect.poll(() => row.textContent()).toContain(campaign.title);
    expect(await row.textContent()).not.toContain(token);

    // The curl example, run as written against the service's real HTTP endpoint.
    await shown.getByRole('heading', { name: 'curl' }).waitFor();
    const curl = (await shown.locator('pre').first().textContent())!;
    expect(curl).toContain(token);
    const request = parseCurl(curl);
    expect(new URL(request.url).origin).toBe(s.baseUrl);
    const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    const created = await res.json() as { campaign_id: number; phone_number: string };
    expect(res.status, JSON.stringify(created)).toBe(200);
    expect(created.campaign_id).toBe(campaign.id);
    const phone = JSON.parse(request.body!).phone as string;
    const listed = await s.t.request({ method: 'GET', url: `/api/v1/contacts/?campaign_id=${campaign.id}`, headers: s.alice.headers });
    expect(listed.json().data.map((c: { phone_number: string }) => c.phone_number)).toContain(created.phone_number);
    expect(created.phone_number.replace(/\D/g, '')).toBe(phone.replace(/\D/g, ''));

    await page.reload();
    await page.getByRole('tab', { name: 'Contact creation' }).click();
    await page.getByRole('table', { name: 'Contact-creation integrations' }).getByRole('row', { name: /Website form/ }).waitFor();
    expect(await page.getByText(token).count()).toBe(0);
    await page.context().close();
  });
});
