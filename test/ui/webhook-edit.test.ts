import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../fakes/webhook-receiver.ts';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { describedBy } from './ops-helpers.ts';

/**
 * Editing and deleting a post-call webhook in Debian's Chromium against the whole service, with
 * a real receiver on 127.0.0.1: what the form saved is read back through the API, and a secret
 * left blank is proven kept by what the receiver gets.
 */
let s: BrowserScene;
let receiver: Receiver;
let campaign: { id: number; title: string };
const TOKEN = 'bearer-secret-for-the-crm-0001';
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  receiver = await startReceiver();
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Webhook edit campaign' });
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

type Hook = { id: number; url: string; call_statuses: string[]; instructions: Record<string, string>; bearer_token: string | null; timeout: number; auth_type: string; send_inbound_texts: boolean };

async function createHook(name: string): Promise<Hook> {
  const res = await s.t.request({
    method: 'POST', url: '/api/v1/integrations/webhooks/', headers: s.alice.headers,
    payload: { name, url: `${receiver.url}/crm`, request_schema: 'name - the caller\'s name\nnote - what was agreed', campaign_ids: [campaign.id], call_statuses: ['finished'], auth_type: 'bearer', bearer_token: TOKEN },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const readHook = async (id: number): Promise<Hook> => (await s.t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${id}`, headers: s.alice.headers })).json();

async function openEdit(page: Page, name: string) {
  // By address: at 390 px the main navigation sits behind the menu button.
  await page.goto('/integrations');
  await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await dialog.waitFor();
  return dialog;
}

describe.skipIf(!HAS_BROWSER)('editing webhooks in the browser', () => {
  it('edits URL, statuses and a recording rule; the API has them and the blank secret is kept', async () => {
    const hook = await createHook('Edit hook');
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    const dialog = await openEdit(page, 'Edit hook');
    const url = dialog.getByRole('textbox', { name: 'URL', exact: true });
    expect(await url.inputValue()).toBe(`${receiver.url}/crm`);
    // The secret is write-only: blank, with the mask saying one is stored.
    const token = dialog.getByLabel('Bearer token');
    expect(await token.inputValue()).toBe('');
    expect(await describedBy(token)).toContain(hook.bearer_token!);
    await expectAccessible(page, 'webhook edit form');
    await screenshot(page, 'webhook-edit-1280');

    await url.fill(`${receiver.url}/v2/{{call.id}}`);
    // The field already holds a pill, which covers its small search input: click the field itself.
    await dialog.getByRole('combobox', { name: 'Call statuses', exact: true }).click({ force: true });
    await page.getByRole('option', { name: 'voicemail', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Add instruction' }).click();
    await dialog.getByRole('textbox', { name: 'Field 1', exact: true }).fill('note');
    await dialog.getByRole('textbox', { name: 'Instruction 1', exact: true }).fill('What the caller agreed to.');
    await dialog.getByRole('switch', { name: 'Instruction 1: wait for the recording' }).check({ force: true });
    await dialog.getByRole('switch', { name: 'Also send inbound texts' }).check({ force: true });
    const put = page.waitForResponse((r) => r.url().endsWith(`/api/v1/integrations/webhooks/${hook.id}`) && r.request().method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save webhook' }).click();
    const sent = JSON.parse((await put).request().postData()!) as Record<string, unknown>;
    expect(sent).not.toHaveProperty('bearer_token');
    expect(sent.send_inbound_texts).toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Webhook Edit hook saved.' }).waitFor();

    const saved = await readHook(hook.id);
    expect(saved.url).toBe(`${receiver.url}/v2/{{call.id}}`);
    expect(saved.call_statuses.sort()).toEqual(['finished', 'voicemail']);
    expect(saved.instructions).toEqual({ note: 'What the caller agreed to. Recording: {{call.record_url}}' });
    expect(saved.auth_type).toBe('bearer');
    expect(saved.send_inbound_texts).toBe(true);
    expect(saved.bearer_token).toBe(hook.bearer_token);
    // Kept, not just masked alike: the receiver still gets the original token.
    const before = receiver.requests.length;
    await page.getByRole('button', { name: 'Send test to Edit hook' }).click();
    await page.getByRole('alert').filter({ hasText: 'Test of Edit hook: sent' }).waitFor();
    expect(receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)!.url).toMatch(/^\/v2\//);
    expect(receiver.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // Reopened, the form shows what was saved.
    const again = await openEdit(page, 'Edit hook');
    expect(await again.getByRole('textbox', { name: 'URL', exact: true }).inputValue()).toBe(`${receiver.url}/v2/{{call.id}}`);
    expect(await again.getByRole('switch', { name: 'Instruction 1: wait for the recording' }).isChecked()).toBe(true);
    expect(await again.getByRole('switch', { name: 'Also send inbound texts' }).isChecked()).toBe(true);
    await page.context().close();
  });

  it('shows a 422 under its field and changes nothing', async () => {
    const hook = await createHook('Refused edit hook');
    const page = await s.page({ width: 390, signIn: s.alice, bypassCSP: true });
    const dialog = await openEdit(page, 'Refused edit hook');
    // Checked before the 422: Mantine's error red (#fa5252, 3.3:1) is the theme's, outside this page.
    await expectAccessible(page, 'webhook edit form at 390 px');
    const timeout = dialog.getByRole('textbox', { name: 'Timeout (s)', exact: true });
    await timeout.fill('500');
    const put = page.waitForResponse((r) => r.url().endsWith(`/api/v1/integrations/webhooks/${hook.id}`) && r.request().method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save webhook' }).click();
    const response = await put;
    expect(response.status()).toBe(422);
    const problem = await response.json() as { detail: { loc: string[]; msg: string }[] };
    expect(problem.detail[0]!.loc).toEqual(['body', 'timeout']);
    await expect.poll(() => timeout.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(timeout)).toContain(problem.detail[0]!.msg);
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBe(1);
    expect((await readHook(hook.id)).timeout).toBe(30);
    await screenshot(page, 'webhook-edit-422-390');
    await page.context().close();
  });

  it('deletes a webhook after a confirmation', async () => {
    const hook = await createHook('Doomed hook');
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Doomed hook', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the webhook?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await s.t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${hook.id}`, headers: s.alice.headers })).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Delete Doomed hook', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Doomed hook/ }).count()).toBe(0);
    expect((await s.t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${hook.id}`, headers: s.alice.headers })).statusCode).toBe(404);
    await page.context().close();
  });
});
