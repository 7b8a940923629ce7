import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubUser } from '../helpers/factories.ts';
import { seed } from '../helpers/seed.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { describedBy, labelled } from './contacts-helpers.ts';

/**
 * The Privacy tab of the Compliance area, in Debian's Chromium against the whole service: the
 * owner sets the retention, exports one seeded person and erases them through the confirmation;
 * a sub-user reads the retention and gets no export or erase. Every change is checked through the API.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene({ DIALER_TICK_MS: '3600000' });
}, 60_000);
afterAll(async () => s?.close());

const PHONE = '+14155550142';

async function get(url: string, headers = s.alice.headers) {
  const res = await s.t.request({ method: 'GET', url, headers });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

// Tab and dialog animations end before axe looks and before a screenshot is taken.
const settled = (page: Page) => page.evaluate(() => {
  const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
  return Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => null)));
});

async function openPrivacy(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compliance', exact: true }).click();
  await page.getByRole('tab', { name: 'Privacy' }).click();
  await page.waitForURL('**/compliance/privacy');
  await page.getByRole('heading', { name: 'Retention', level: 3 }).waitFor();
}

describe.skipIf(!HAS_BROWSER)('the Privacy tab', () => {
  it('saves the retention (a number out of range is refused next to the field) and keeps it after a reload', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openPrivacy(page);
    const keep = page.getByRole('checkbox', { name: 'Keep until deleted' });
    const days = labelled(page, 'Keep personal data for (days)');
    await expect.poll(() => keep.isChecked()).toBe(true);
    await keep.uncheck();
    await days.fill('0');
    await page.getByRole('button', { name: 'Save retention' }).click();
    // The API's message joins the field's description ("1 to 36500").
    await expect.poll(async () => (await describedBy(days)).replace('1 to 36500', '').trim()).not.toBe('');
    expect((await get('/api/v1/privacy/settings')).retention_days).toBeNull();

    await days.fill('30');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await get('/api/v1/privacy/settings')).retention_days).toBe(30);
    await page.reload();
    await expect.poll(() => labelled(page, 'Keep personal data for (days)').inputValue()).toBe('30');
    expect(await page.getByRole('checkbox', { name: 'Keep until deleted' }).isChecked()).toBe(false);
    await settled(page);
    await expectAccessible(page, 'privacy tab');
    await page.context().close();
  });

  it('chooses what is redacted and where, and keeps the choice after a reload; at 390 px the tab reads in one column', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true, width: 390 });
    // On a phone the main navigation is behind the menu button: the tab is opened by its address.
    await page.goto('/compliance/privacy');
    await page.getByRole('heading', { name: 'Redaction', level: 3 }).waitFor();
    const email = page.getByRole('checkbox', { name: 'E-mail addresses [EMAIL]' });
    const card = page.getByRole('checkbox', { name: 'Payment card numbers [CARD]' });
    const payloads = page.getByRole('checkbox', { name: 'Webhook payloads' });
    // The default: cards, IBANs and national ids, everywhere.
    await expect.poll(() => card.isChecked()).toBe(true);
    expect(await email.isChecked()).toBe(false);
    await email.check();
    await payloads.uncheck();
    await page.getByRole('button', { name: 'Save redaction' }).click();
    await page.getByRole('status').filter({ hasText: 'Redaction saved.' }).waitFor();
    expect(await get('/api/v1/privacy/redaction')).toMatchObject({ categories: ['card', 'iban', 'ssn', 'email'], places: ['transcript', 'call_data'] });
    expect((await get('/api/v1/audit-events/?kind=privacy.redaction_changed')).count).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByRole('checkbox', { name: 'E-mail addresses [EMAIL]' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Webhook payloads' }).isChecked()).toBe(false);
    // Nothing chosen says so before it is saved.
    for (const name of ['Transcripts and live turns', 'The vendor’s analysis and whispers']) await page.getByRole('checkbox', { name }).uncheck();
    await page.getByText('Nothing is redacted').waitFor();
    await settled(page);
    await expectAccessible(page, 'privacy tab at 390 px');
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'privacy-390');
    await page.context().close();
  });

  it('exports a person as a JSON file with its counts, then erases them through the confirmation and shows the report', async () => {
    const { contacts: [contact] } = await seed(s.t.deps.db, {
      campaigns: [{ owner: s.alice, title: 'Privacy people' }],
      contacts: [{ campaign: 0, phone_number: PHONE, contact_data: { name: 'Jo Private' } }],
    });
    await seed(s.t.deps.db, { calls: [{ contact, status: 'finished', call_type: 'outbound', to_number: PHONE, start_time: new Date(Date.now() - 7200_000), end_time: new Date(Date.now() - 7000_000) }] });
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openPrivacy(page);

    // A number that is not one is refused next to its field.
    await labelled(page, 'Person\'s phone number').fill('not a phone');
    await page.getByRole('button', { name: 'Export' }).click();
    await expect.poll(() => describedBy(labelled(page, 'Person\'s phone number'))).toMatch(/not a valid phone number/);

    await labelled(page, 'Person\'s phone number').fill('+1 415 555 0142');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^person-\d{4}-\d{2}-\d{2}\.json$/);
    const doc = JSON.parse(await readFile((await file.path())!, 'utf8'));
    expect(doc.counts).toMatchObject({ contacts: 1, calls: 1 });
    await page.getByText(/Found: Contacts 1 · Calls 1 · Texts 0/).waitFor();
    await settled(page);
    await expectAccessible(page, 'privacy tab after an export');
    await screenshot(page, 'privacy-1280');

    await page.getByRole('button', { name: 'Erase…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this person\'s data?' });
    await dialog.getByText(/cannot be undone/).waitFor();
    await dialog.getByText(/stays on the do-not-call list as a salted hash/).waitFor();
    const erase = dialog.getByRole('button', { name: 'Erase permanently' });
    expect(await erase.isDisabled()).toBe(true);
    await dialog.getByLabel('Type the phone number again to confirm').fill('+14155550142');
    await settled(page);
    await expectAccessible(page, 'erase dialog');
    await screenshot(page, 'privacy-erase-dialog-1280');
    await erase.click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/Erased: Contacts 1 · Calls 1/).waitFor();
    await page.getByText(/Dialling the number stays blocked/).waitFor();
    const after = await get(`/api/v1/contacts/${contact.id}`).catch(() => null);
    if (after) expect(JSON.stringify(after)).not.toContain('Jo Private');
    expect((await get('/api/v1/audit-events/?kind=privacy.person_erased')).count).toBe(1);
    await page.context().close();
  });

  it('sets a campaign\'s own stricter retention on its page and shows the one that applies', async () => {
    const { campaigns: [campaign] } = await seed(s.t.deps.db, { campaigns: [{ owner: s.alice, title: 'Short memory' }] });
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    const field = labelled(page, 'This campaign keeps personal data for (days)');
    await field.waitFor();
    await field.fill('7');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByRole('status').filter({ hasText: 'Retention saved.' }).waitFor();
    await page.getByText(/Applies to this campaign: 7 days\./).waitFor();
    expect(await get(`/api/v1/campaigns/${campaign.id}/privacy`)).toMatchObject({ retention_days: 7, effective_retention_days: 7 });
    await settled(page);
    await expectAccessible(page, 'campaign retention');
    await page.context().close();
  });

  it('chooses how a campaign\'s calls are recorded on its page: only after consent, with its own question', async () => {
    const { campaigns: [campaign] } = await seed(s.t.deps.db, { campaigns: [{ owner: s.alice, title: 'Recorded carefully' }] });
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    const rule = page.getByRole('combobox', { name: 'Record calls' });
    await rule.waitFor();
    expect(await rule.inputValue()).toBe('By the contact’s state or country (default)');
    await rule.click();
    await page.getByRole('option', { name: 'Only after the person agrees (yes or 1)', exact: true }).click();
    await page.getByText(/recording starts only on a yes or a 1/).waitFor();
    await labelled(page, 'The question the agent asks first').fill('May we record this call for quality? Say yes or press 1.');
    await page.getByRole('button', { name: 'Save recording' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording saved.' }).waitFor();
    expect(await get(`/api/v1/campaigns/${campaign.id}/recording`)).toMatchObject({ rule: 'after_consent', consent_prompt: 'May we record this call for quality? Say yes or press 1.' });
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Record calls' }).inputValue()).toBe('Only after the person agrees (yes or 1)');
    await settled(page);
    await expectAccessible(page, 'campaign recording');
    await page.context().close();
  });

  it('shows a sub-user the retention read only, and no export or erase', async () => {
    const sub = await createSubUser(s.t, s.alice.id);
    const page = await s.page({ signIn: { email: sub.email, password: sub.password }, bypassCSP: true });
    await openPrivacy(page);
    await page.getByText('Only the account owner changes the retention.').waitFor();
    await page.getByText('Only the account owner changes what is redacted.').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Payment card numbers [CARD]' }).isDisabled()).toBe(true);
    await page.getByText(/Only the account owner exports or erases/).waitFor();
    expect(await page.getByRole('button', { name: /^(Export|Erase|Save retention|Save redaction)/ }).count()).toBe(0);
    expect(await labelled(page, 'Keep personal data for (days)').getAttribute('readonly')).not.toBeNull();
    // The API refuses a sub-user's erasure too; the page only spares the person the button.
    const res = await s.t.request({ method: 'POST', url: '/api/v1/privacy/erasures', headers: sub.headers, payload: { phone_number: PHONE } });
    expect(res.statusCode).toBe(403);
    await settled(page);
    await expectAccessible(page, 'privacy tab of a sub-user');
    await page.context().close();
  });
});
