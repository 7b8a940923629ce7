import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi, createSubUser } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { choose, describedBy } from './ops-helpers.ts';

/**
 * The assistants and voice-connections pages in Debian's Chromium against the whole service:
 * what is typed is checked through the API, and the API's 422 and 409 answers appear next to
 * the field or action they concern. PUBLIC_BASE_URL is set so connections have an events URL.
 */
const BASE = 'https://calls.example.com';
let s: BrowserScene;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene({ PUBLIC_BASE_URL: BASE });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const get = async (url: string) => (await s.t.request({ method: 'GET', url, headers: s.alice.headers })).json();
const post = async (url: string, payload: Record<string, unknown>) => {
  const res = await s.t.request({ method: 'POST', url, headers: s.alice.headers, payload });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};

async function openFromNavigation(page: Page, link: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: link, level: 2 }).waitFor();
  // The pointer leaves the link: axe judges the page as it rests, not the link's hover colour.
  await page.mouse.move(640, 5);
}

const textbox = (within: Locator | Page, name: string) => within.getByRole('textbox', { name, exact: true });

/** The error text shown for a field, as assistive technology reads it (aria-describedby). */
async function errorOf(field: Locator) {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  return describedBy(field);
}

/** Mantine's modals fade in and out: axe and screenshots wait for the page to rest (a cancelled animation counts as ended). */
const settled = (page: Page) => page.evaluate(() => {
  const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
  return Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => null)));
});

/** The list (axe-checked: cards at 390 px) and its "New ..." form at both widths, for a reviewer. At 390 px the page is opened by its address (the navigation is folded). */
async function shoot(path: string, name: string, newButton: string, waitFor: (page: Page) => Promise<unknown>) {
  for (const width of [1280, 390]) {
    const page = await s.page({ signIn: s.alice, width, bypassCSP: true });
    await page.goto(path);
    await waitFor(page);
    await screenshot(page, `${name}-${width}`);
    await expectAccessible(page, `${name} at ${width} px`);
    await page.getByRole('button', { name: newButton }).click();
    await page.getByRole('dialog').waitFor();
    await settled(page);
    await screenshot(page, `${name}-form-${width}`);
    await page.context().close();
  }
}

describe.skipIf(!HAS_BROWSER)('assistants and voice connections in the browser', () => {
  let connection: { id: number; name: string };

  it('creates a Vapi voice connection with write-only secrets and shows its events URL to paste at Vapi', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openFromNavigation(page, 'Voice connections');
    await page.getByRole('button', { name: 'New voice connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New voice connection' });
    await textbox(dialog, 'Name').fill('Vapi main');
    // Secrets are password inputs: not readable on screen.
    expect(await dialog.getByLabel(/^API key/).getAttribute('type')).toBe('password');
    expect(await dialog.getByLabel(/^Server secret/).getAttribute('type')).toBe('password');
    await dialog.getByLabel(/^API key/).fill('vapi-private-key-1234567890');
    await dialog.getByLabel(/^Server secret/).fill('vapi-server-secret-abcdef');
    await textbox(dialog, 'Phone number id').fill('pn-main-1');
    await textbox(dialog, 'Max concurrent calls').fill('7');
    await textbox(dialog, 'Calls per second').fill('2.5');
    await dialog.getByRole('button', { name: 'Create connection' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const listed = (await get('/api/v1/voice-connections/')).data;
    expect(listed).toHaveLength(1);
    connection = listed[0];
    expect(listed[0]).toMatchObject({ name: 'Vapi main', provider: 'vapi', phone_number_id: 'pn-main-1', max_concurrent_calls: 7, calls_per_second: 2.5 });
    const eventsUrl = `${BASE}/api/v1/voice/vapi/events?connection=${connection.id}`;
    expect(listed[0].events_url).toBe(eventsUrl);

    const row = page.getByRole('table', { name: 'Voice connections' }).getByRole('row', { name: /Vapi main/ });
    await row.waitFor();
    const text = (await row.textContent())!;
    expect(text).toContain(eventsUrl);
    expect(text).toContain(listed[0].api_key); // masked as the API answers it
    expect(text).not.toContain('vapi-private-key-1234567890');
    expect(text).not.toContain('vapi-server-secret-abcdef');
    await row.getByRole('button', { name: 'Copy events URL of Vapi main' }).waitFor();

    // A change leaves the secrets empty: they are kept (write-only, never filled back in).
    await row.getByRole('button', { name: 'Edit Vapi main' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Vapi main' });
    expect(await edit.getByLabel(/^API key/).inputValue()).toBe('');
    await textbox(edit, 'Max concurrent calls').fill('8');
    await edit.getByRole('button', { name: 'Save connection' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    const changed = await get(`/api/v1/voice-connections/${connection.id}`);
    expect(changed).toMatchObject({ max_concurrent_calls: 8, api_key: listed[0].api_key, webhook_secret: listed[0].webhook_secret });
    await settled(page);
    await expectAccessible(page, 'voice connections page');
    await page.context().close();
    await shoot('/voice-connections', 'voice-connections', 'New voice connection', (p) => p.getByText('Vapi main').first().waitFor());
  });

  it('creates a Vapi assistant on that connection with every field, a leave_message voicemail and one rule', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openFromNavigation(page, 'Assistants');
    await page.getByRole('button', { name: 'New assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New assistant' });
    await textbox(dialog, 'Name').fill('Renewals Vapi');
    await choose(page, 'Provider', 'Vapi', dialog);
    await textbox(dialog, 'Provider assistant id').fill('asst-123');
    await choose(page, 'Voice connection', `Vapi main (#${connection.id})`, dialog);
    await textbox(dialog, 'First message').fill('Hello {{contact.first_name}}, calling about {{campaign.title}}');
    // The placeholders are explained where they are typed.
    expect(await describedBy(textbox(dialog, 'First message'))).toContain('{{contact.<field>}}');
    await textbox(dialog, 'System prompt').fill('You renew subscriptions for {{campaign.title}}.');
    await textbox(dialog, 'Voice').fill('11labs:rachel');
    await textbox(dialog, 'Language').fill('en-US');
    await textbox(dialog, 'Model').fill('gpt-4o');
    await choose(page, 'Voicemail', 'Leave a message', dialog);
    await textbox(dialog, 'Voicemail message').fill('Hi {{contact.first_name}}, please call us back.');
    await textbox(dialog, 'Max duration (seconds)').fill('300');
    await textbox(dialog, 'Transfer number').fill('+1 415 555 0123');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await textbox(dialog, 'Rule 1 path').fill('structuredData.appointment');
    await choose(page, 'Rule 1 match', 'equals text', dialog);
    await textbox(dialog, 'Rule 1 value').fill('booked');
    await choose(page, 'Rule 1 action status', 'scheduled', dialog);
    await settled(page);
    await expectAccessible(page, 'assistant form');
    await dialog.getByRole('button', { name: 'Create assistant' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const saved = (await get('/api/v1/assistants/')).data.find((a: { name: string }) => a.name === 'Renewals Vapi');
    expect(saved).toMatchObject({
      provider: 'vapi', provider_assistant_id: 'asst-123', voice_connection_id: connection.id,
      first_message: 'Hello {{contact.first_name}}, calling about {{campaign.title}}', system_prompt: 'You renew subscriptions for {{campaign.title}}.',
      voice: '11labs:rachel', language: 'en-US', model: 'gpt-4o', voicemail_action: 'leave_message',
      voicemail_message: 'Hi {{contact.first_name}}, please call us back.', max_duration_seconds: 300, transfer_number: '+14155550123',
      action_status_rules: [{ path: 'structuredData.appointment', equals: 'booked', action_status: 'scheduled' }],
    });
    const row = page.getByRole('table', { name: 'Assistants' }).getByRole('row', { name: /Renewals Vapi/ });
    expect(await row.textContent()).toContain('Vapi main');

    // Editing opens with what was saved, and a change is saved.
    await row.getByRole('button', { name: 'Edit Renewals Vapi' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Renewals Vapi' });
    expect(await textbox(edit, 'Rule 1 value').inputValue()).toBe('booked');
    await textbox(edit, 'Model').fill('gpt-4o-mini');
    await edit.getByRole('button', { name: 'Save assistant' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    expect((await get(`/api/v1/assistants/${saved.id}`))).toMatchObject({ model: 'gpt-4o-mini', voicemail_message: saved.voicemail_message });
    await settled(page);
    await expectAccessible(page, 'assistants page');
    await page.context().close();
    await shoot('/assistants', 'assistants', 'New assistant', (p) => p.getByText('Renewals Vapi').first().waitFor());
  });

  it('shows 422s next to the rule row and the field they name, and creates nothing', async () => {
    const before = (await get('/api/v1/assistants/')).count;
    const page = await s.page({ signIn: s.alice });
    await openFromNavigation(page, 'Assistants');
    await page.getByRole('button', { name: 'New assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New assistant' });
    await textbox(dialog, 'Name').fill('Broken');
    await textbox(dialog, 'System prompt').fill('Hello {{contact.first_name');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await textbox(dialog, 'Rule 1 path').fill('not a path!');
    await dialog.getByRole('button', { name: 'Create assistant' }).click();
    // The schema checks the rule first: its message is in the rule's own row.
    const rule = dialog.getByRole('group', { name: 'Rule 1' });
    await rule.getByRole('alert').waitFor();
    expect(await rule.getByRole('alert').textContent()).toMatch(/^Rule 1: /);
    expect(await textbox(dialog, 'Rule 1 path').getAttribute('aria-invalid')).toBe('true');

    await textbox(dialog, 'Rule 1 path').fill('structuredData.ok');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/assistants/') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create assistant' }).click();
    const response = await answer;
    expect(response.status()).toBe(422);
    const problem = await response.json();
    expect(problem.detail[0].loc).toEqual(['body', 'system_prompt']);
    expect(await errorOf(textbox(dialog, 'System prompt'))).toContain(problem.detail[0].msg);
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBe(1);
    expect(await rule.getByRole('alert').count()).toBe(0);
    expect((await get('/api/v1/assistants/')).count).toBe(before);
    await page.context().close();
  });

  it('keeps an assistant a campaign uses: the 409 shows next to Delete and nothing is deleted', async () => {
    const assistant = await post('/api/v1/assistants/', { name: 'In use', provider: 'sim' });
    await createCampaignViaApi(s.t, s.alice.headers, { title: 'Uses the assistant', assistant_id: assistant.id });
    const page = await s.page({ signIn: s.alice });
    await openFromNavigation(page, 'Assistants');
    await page.getByRole('button', { name: 'Delete In use' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the assistant?' });
    await dialog.getByRole('button', { name: 'Delete assistant' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Conflict.*used by 1 campaign/);
    expect((await s.t.request({ method: 'GET', url: `/api/v1/assistants/${assistant.id}`, headers: s.alice.headers })).statusCode).toBe(200);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The connection is used by an assistant too: its 409 stays next to its Delete.
    await openFromNavigation(page, 'Voice connections');
    await page.getByRole('button', { name: 'Delete Vapi main' }).click();
    const connDialog = page.getByRole('dialog', { name: 'Delete the voice connection?' });
    await connDialog.getByRole('button', { name: 'Delete connection' }).click();
    await connDialog.getByRole('alert').filter({ hasText: /used by 1 assistant/ }).waitFor();
    expect((await get('/api/v1/voice-connections/')).count).toBe(1);
    await page.context().close();
  });

  it('shows a sub-user the assistants of its campaigns read-only, and no voice connections', async () => {
    const assistant = await post('/api/v1/assistants/', { name: 'Shared with the sub-user', provider: 'sim', first_message: 'Hi there' });
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Granted with an assistant', assistant_id: assistant.id });
    const sub = await createSubUser(s.t, s.alice.id, [campaign.id]);
    const page = await s.page({ signIn: { email: sub.email, password: sub.password }, bypassCSP: true });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Voice connections' }).count()).toBe(0);
    await openFromNavigation(page, 'Assistants');
    const row = page.getByRole('row', { name: /Shared with the sub-user/ });
    await row.waitFor();
    expect(await page.getByRole('button', { name: 'New assistant' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Delete|Edit) / }).count()).toBe(0);
    await settled(page);
    await expectAccessible(page, 'assistants page of a sub-user');
    await row.getByRole('button', { name: 'View Shared with the sub-user' }).click();
    const dialog = page.getByRole('dialog', { name: 'View Shared with the sub-user' });
    // Every setting as text, nothing to type into or save.
    const settings = dialog.getByRole('table', { name: 'Settings of Shared with the sub-user' });
    expect(await settings.getByRole('row', { name: /First message/ }).textContent()).toContain('Hi there');
    expect(await dialog.getByRole('textbox').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /Save|Create|Add rule/ }).count()).toBe(0);
    await settled(page);
    await expectAccessible(page, 'an assistant as a sub-user sees it');
    await screenshot(page, 'assistants-sub-user-1280');
    await page.context().close();
  });
});
