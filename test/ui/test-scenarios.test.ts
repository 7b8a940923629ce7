import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubUser } from '../helpers/factories.ts';
import { mkdirSync } from 'node:fs';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, SCREENSHOTS, type BrowserScene } from './browser-scene.ts';
import { choose, labelled } from './contacts-helpers.ts';

/**
 * Test scenarios on the campaign page, in Debian's Chromium against the whole service (its
 * scenario runner included), without a language model: the owner writes a scenario from a
 * ready-made caller, runs it, and reads the conversation and the verdicts (the offline checks' and
 * the note of what a model would add); a pending prompt is tested from the prompt history.
 * Everything is checked through the API too.
 */
let s: BrowserScene;
let campaignId: number;
let pendingId: number;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene({ DIALER_TICK_MS: '200' });
  const created = await s.t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: s.alice.headers, payload: { title: 'Solar renewals', campaign_type: 'Outbound', campaign_data: { prompt: 'You are Ava calling {{contact.name}}.' } } });
  campaignId = created.json().id;
  const sub = await createSubUser(s.t, s.alice.id, [campaignId]);
  const proposed = await s.t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: sub.headers, payload: { campaign_data: { prompt: 'You are Ava. Honour every opt-out.' } } });
  pendingId = proposed.json().prompt_history[0].id;
}, 60_000);
afterAll(async () => s?.close());

const runsOf = async () => (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/test-runs`, headers: s.alice.headers })).json().items as { id: number; status: string; prompt_history_id: number | null }[];

/** The section alone, to look at closely (the full page is long). */
async function sectionShot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.getByRole('region', { name: 'Test scenarios' }).screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname });
}

async function openCampaign(page: Page) {
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole('heading', { name: 'Test scenarios', level: 3 }).waitFor();
}

describe.skipIf(!HAS_BROWSER)('test scenarios on the campaign page', () => {
  it('writes a scenario from a ready-made caller, runs it and shows the conversation and each verdict with its reason', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openCampaign(page);
    const section = page.getByRole('region', { name: 'Test scenarios' });
    await section.getByText('No language model is configured').waitFor();
    await section.getByRole('button', { name: 'Write a scenario' }).click();
    const form = page.getByRole('form', { name: 'New test scenario' });
    await choose(page, form, 'Start from', 'Asks to be removed');
    expect(await labelled(form, 'Name').inputValue()).toBe('Asks to be removed');
    expect(await labelled(form, 'Success criteria, one per line').inputValue()).toContain('The agent stops when asked not to be called');
    await form.getByRole('button', { name: 'Save scenario' }).click();
    const card = page.getByRole('article', { name: 'Scenario Asks to be removed' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Run Asks to be removed' }).click();
    const run = page.getByRole('article', { name: /^Test run \d+$/ });
    await run.getByText('failed', { exact: true }).waitFor({ timeout: 20_000 });
    const conversation = run.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => conversation.textContent()).toContain('Please take me off your list. Do not call me again.');
    expect(await conversation.textContent()).toContain('Would you like us to follow up with you?');
    expect(await conversation.textContent()).toContain('⚙ end_call');
    const verdicts = run.getByRole('list', { name: 'Verdicts' }).getByRole('listitem');
    expect(await verdicts.count()).toBe(3);
    expect(await verdicts.nth(0).textContent()).toMatch(/✗ Not met: The agent stops when asked not to be called\s*the agent never called do_not_call/);
    expect(await verdicts.nth(1).textContent()).toContain('? Not judged');
    expect(await verdicts.nth(1).textContent()).toContain('needs a language model (set LLM_BASE_URL)');
    expect(await verdicts.nth(2).textContent()).toContain('✓ Met: The agent ends the call politely');
    const [stored] = await runsOf();
    expect(stored).toMatchObject({ status: 'failed' });
    await card.getByRole('button', { name: `Open run ${stored!.id}: failed` }).waitFor();
    await expectAccessible(page, 'test scenarios');
    await screenshot(page, 'test-scenarios-1280');
    await sectionShot(page, 'test-scenarios-section-1280');
    await page.context().close();
  });

  it('tests a pending prompt version from the prompt history', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openCampaign(page);
    await page.getByRole('article', { name: 'Prompt version 2' }).getByRole('button', { name: 'Test version 2' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Test against' }).inputValue()).toBe('Pending version 2');
    const before = (await runsOf()).length;
    await page.getByRole('button', { name: 'Run Asks to be removed' }).click();
    await expect.poll(async () => (await runsOf()).length).toBe(before + 1);
    const [newest] = await runsOf();
    expect(newest!.prompt_history_id).toBe(pendingId);
    await page.getByRole('article', { name: `Test run ${newest!.id}` }).getByText('failed', { exact: true }).waitFor({ timeout: 20_000 });
    await page.context().close();
  });

  it('reads a run in one column at 390 px', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true, width: 390 });
    await openCampaign(page);
    const [newest] = await runsOf();
    await page.getByRole('button', { name: `Open run ${newest!.id}: failed` }).click();
    const run = page.getByRole('article', { name: `Test run ${newest!.id}` });
    await run.getByRole('log', { name: 'Conversation' }).waitFor();
    const box = await run.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await run.scrollIntoViewIfNeeded();
    await screenshot(page, 'test-scenarios-390');
    await sectionShot(page, 'test-scenarios-section-390');
    await page.context().close();
  });

  it('edits a scenario: a refused change shows the API\'s reason under its field, a good one is saved', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openCampaign(page);
    await page.getByRole('button', { name: 'Edit Asks to be removed' }).click();
    const form = page.getByRole('form', { name: 'Edit Asks to be removed' });
    expect(await labelled(form, 'Who the caller is').inputValue()).not.toBe('');
    await labelled(form, 'Name').fill('Asks to be removed, firmly');
    await labelled(form, 'Success criteria, one per line').fill(Array.from({ length: 11 }, (_, i) => `Criterion ${i + 1}`).join('\n'));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText(/at most 10|10 items|fewer/i).waitFor();
    await sectionShot(page, 'test-scenario-edit-1280');
    await labelled(form, 'Success criteria, one per line').fill('The agent stops when asked not to be called\nThe agent says goodbye');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const card = page.getByRole('article', { name: 'Scenario Asks to be removed, firmly' });
    await card.waitFor();
    expect(await card.textContent()).toContain('The agent says goodbye');
    const { items } = (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/test-scenarios`, headers: s.alice.headers })).json();
    expect(items[0]).toMatchObject({ name: 'Asks to be removed, firmly', criteria: ['The agent stops when asked not to be called', 'The agent says goodbye'] });
    // The runs made before stay listed under the scenario.
    await card.getByRole('button', { name: /^Open run \d+: failed$/ }).first().waitFor();
    await expectAccessible(page, 'a scenario being edited');
    await page.context().close();
  });
});
