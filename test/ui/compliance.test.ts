import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishCall } from '../../src/modules/dialer/call-events/call-events.service.ts';
import { createCampaignViaApi, createSubUser } from '../helpers/factories.ts';
import { createFinishedCall } from '../helpers/finished-call.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { describedBy, labelled } from './contacts-helpers.ts';

/**
 * The Compliance area as an owner and a sub-user use it, in Debian's Chromium against the whole
 * service: the do-not-call list (add, a refused number, look up, remove, a CSV with a bad row),
 * the quiet hours and caps with their audit event, and what a sub-user may not do. Things are found
 * by role, label and text; every change is checked through the API too.
 */
let s: BrowserScene;
beforeAll(async () => {
  // The dialer stays asleep: nothing here calls, and the numbers stay as the tests leave them.
  if (HAS_BROWSER) s = await browserScene({ DIALER_TICK_MS: '3600000' });
}, 60_000);
afterAll(async () => s?.close());

async function get(url: string, headers = s.alice.headers) {
  const res = await s.t.request({ method: 'GET', url, headers });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

// Tab animations end before axe looks and before a screenshot is taken.
const settled = (page: Page) => page.evaluate(() => {
  const doc = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] } }).document;
  return Promise.all(doc.getAnimations().map((a) => a.finished.catch(() => null)));
});

async function openCompliance(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compliance', exact: true }).click();
  await page.getByRole('heading', { name: 'Compliance', level: 2 }).waitFor();
  await page.getByRole('table', { name: 'Do-not-call list' }).waitFor();
}

const listRow = (page: Page, phone: string) => page.getByRole('table', { name: 'Do-not-call list' }).getByRole('row', { name: new RegExp(phone.replace('+', '\\+')) });

describe.skipIf(!HAS_BROWSER)('the Compliance area', () => {
  it('adds a number through the form, shows a refused number next to its field, looks numbers up and removes one', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openCompliance(page);
    await labelled(page, 'Phone number').fill('+1 212 555 1100');
    await labelled(page, 'Reason').fill('Asked by letter');
    await page.getByRole('button', { name: 'Add number' }).click();
    const row = listRow(page, '+12125551100');
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['+12125551100', 'Asked by letter', 'Added by hand', s.alice.email, 'Never']));
    const listed = await get('/api/v1/suppressions/?phone_number=%2B12125551100');
    expect(listed.count).toBe(1);
    expect(listed.data[0]).toMatchObject({ reason: 'Asked by letter', source: 'manual', created_by: { user_id: s.alice.id } });

    await labelled(page, 'Phone number').fill('not a phone');
    await page.getByRole('button', { name: 'Add number' }).click();
    await expect.poll(() => describedBy(labelled(page, 'Phone number'))).toMatch(/'not a phone' is not a valid phone number/);
    expect((await get('/api/v1/suppressions/')).count).toBe(1);

    const lookup = labelled(page, 'Number to look up');
    await lookup.fill('+1 (212) 555-1100');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText('+12125551100 is suppressed').waitFor();
    await page.getByText(/Asked by letter · never expires/).waitFor();
    await lookup.fill('+1 212 555 1199');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText('+12125551199 is not suppressed').waitFor();
    await settled(page);
    await expectAccessible(page, 'do-not-call list');
    await screenshot(page, 'compliance-list-1280');

    // Removing asks first, and the removal is in the API and the audit log.
    await labelled(page, 'Phone number').fill('+1 212 555 1101');
    await page.getByRole('button', { name: 'Add number' }).click();
    await listRow(page, '+12125551101').waitFor();
    await page.getByRole('button', { name: 'Remove +12125551101' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the number from the do-not-call list?' });
    await dialog.getByRole('button', { name: 'Remove number' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => listRow(page, '+12125551101').count()).toBe(0);
    expect((await get('/api/v1/suppressions/?phone_number=%2B12125551101')).count).toBe(0);
    expect((await get('/api/v1/audit-events/?kind=suppression.removed')).data[0].details).toMatchObject({ phone_number: '+12125551101' });
    await page.context().close();

    const narrow = await s.page({ signIn: s.alice, width: 390, bypassCSP: true });
    await narrow.goto('/compliance');
    await listRow(narrow, '+12125551100').waitFor();
    await settled(narrow);
    await expectAccessible(narrow, 'do-not-call list at 390 px');
    await screenshot(narrow, 'compliance-list-390');
    await narrow.context().close();
  });

  it('uploads a CSV with one bad row: the counts, the row error and its download', async () => {
    const page = await s.page({ signIn: s.alice });
    await openCompliance(page);
    const csv = 'phone_number,reason\n+12125551201,Letter\nnot-a-number,Oops\n+12125551202,\n';
    const chooser = page.waitForEvent('filechooser');
    await labelled(page, 'CSV file').click();
    await (await chooser).setFiles({ name: 'dnc.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload and add' }).click();
    await page.getByText('Added 2 · Failed 1 · 3 rows').waitFor();
    await page.getByText(/^Upload completed · dnc\.csv/).waitFor();
    const errors = page.getByRole('table', { name: 'Upload errors' }).locator('tbody').getByRole('row');
    expect(await errors.count()).toBe(1);
    expect(await errors.first().getByRole('cell').allTextContents()).toEqual(['2', 'not-a-number', 'not a valid phone number']);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download errors' }).click();
    const file = await (await download).path();
    expect(await readFile(file, 'utf8')).toBe('row,phone_number,reason\r\n2,not-a-number,not a valid phone number\r\n');
    await listRow(page, '+12125551201').waitFor();
    const imported = await get('/api/v1/suppressions/?source=import');
    expect(imported.data.map((r: { phone_number: string }) => r.phone_number).sort()).toEqual(['+12125551201', '+12125551202']);
    await page.context().close();
  });

  it('changes the quiet hours (a window ending before it starts is refused next to the field) and shows the change in the audit log', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await openCompliance(page);
    await page.getByRole('tab', { name: 'Quiet hours and caps' }).click();
    await page.waitForURL('**/compliance/settings');
    const from = labelled(page, 'Calling from');
    const until = labelled(page, 'Calling until');
    await expect.poll(() => from.inputValue()).toBe('00:00');
    await from.fill('09:00');
    await until.fill('08:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => describedBy(until)).toMatch(/must be later than quiet_hours_from/);
    expect((await get('/api/v1/compliance/settings')).quiet_hours_from).toBe('00:00');

    await until.fill('20:30');
    await labelled(page, 'Texts per number per day').fill('3');
    await labelled(page, 'Texts per number per week').fill('6');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await get('/api/v1/compliance/settings')).toMatchObject({ quiet_hours_from: '09:00', quiet_hours_to: '20:30', max_texts_per_day: 3, max_texts_per_week: 6 });
    await settled(page);
    await expectAccessible(page, 'quiet hours and caps');
    await screenshot(page, 'compliance-settings-1280');

    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.waitForURL('**/compliance/audit');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'account.quiet_hours_changed', exact: true }).click();
    await page.keyboard.press('Escape');
    const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody').getByRole('row');
    await expect.poll(() => rows.count()).toBe(1);
    const cells = await rows.first().getByRole('cell').allTextContents();
    expect(cells[1]).toContain(s.alice.email);
    expect(cells[2]).toBe('account.quiet_hours_changed');
    expect(cells[4]).toBe('from: 00:00–24:00 · to: 09:00–20:30');
    const events = await get('/api/v1/audit-events/?kind=account.quiet_hours_changed');
    expect(events.count).toBe(1);
    expect(events.data[0]).toMatchObject({ actor: { type: 'user', user_id: s.alice.id }, details: { from: ['00:00', '24:00'], to: ['09:00', '20:30'] } });
    await settled(page);
    await expectAccessible(page, 'audit log');
    await screenshot(page, 'compliance-audit-1280');
    await page.context().close();

    for (const [path, name] of [['/compliance/settings', 'settings'], ['/compliance/audit', 'audit']] as const) {
      const narrow = await s.page({ signIn: s.alice, width: 390, bypassCSP: true });
      await narrow.goto(path);
      await (name === 'audit' ? narrow.getByRole('table', { name: 'Audit log' }).locator('tbody tr').first() : narrow.getByRole('button', { name: 'Save' })).waitFor();
      await settled(narrow);
      await expectAccessible(narrow, `${name} at 390 px`);
      await screenshot(narrow, `compliance-${name}-390`);
      await narrow.context().close();
    }
  });

  it('lets a sub-user see the list and add a number, with no Remove button, read-only settings and no Audit tab', async () => {
    const sub = await createSubUser(s.t, s.alice.id);
    const page = await s.page({ signIn: { email: sub.email, password: sub.password }, bypassCSP: true });
    await openCompliance(page);
    await listRow(page, '+12125551100').waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Do-not-call list', 'Quiet hours and caps', 'Privacy']);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);

    await labelled(page, 'Phone number').fill('+1 212 555 1300');
    await page.getByRole('button', { name: 'Add number' }).click();
    await listRow(page, '+12125551300').waitFor();
    expect((await get('/api/v1/suppressions/?phone_number=%2B12125551300')).data[0].created_by).toMatchObject({ sub_user_id: sub.id });
    // The API refuses a sub-user's removal too; the page only spares the person the button.
    const id = (await get('/api/v1/suppressions/?phone_number=%2B12125551300')).data[0].id;
    expect((await s.t.request({ method: 'DELETE', url: `/api/v1/suppressions/${id}`, headers: sub.headers })).statusCode).toBe(403);
    await settled(page);
    await expectAccessible(page, 'do-not-call list of a sub-user');

    await page.getByRole('tab', { name: 'Quiet hours and caps' }).click();
    await page.getByText('Only the account owner changes these settings.').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await labelled(page, 'Calling from').getAttribute('readonly')).not.toBeNull();
    await settled(page);
    await expectAccessible(page, 'settings of a sub-user');

    // The audit address shows a sub-user the list, not the log.
    await page.goto('/compliance/audit');
    await page.getByRole('table', { name: 'Do-not-call list' }).waitFor();
    expect(await page.getByRole('table', { name: 'Audit log' }).count()).toBe(0);
    await page.context().close();
  });

  it('shows on a call\'s page who found the opt-out and which number it went out from, and lists the number', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Opt-out on a call' });
    const live = await createFinishedCall(s.t.deps.db, {
      ownerId: s.alice.id, campaignId: campaign.id, status: 'in progress', action_status: null, transcript: null, finish: false,
      extra_call_data: { caller_id: { number: '+12125550181', reason: 'same area code as the contact' } },
    });
    // The call ends through the dialer's own path, with the caller's words.
    await finishCall({ deps: s.t.deps, callId: live.id, outcome: { status: 'finished', transcript: [
      { role: 'assistant', text: 'Hello, this is Acme.' }, { role: 'user', text: 'Take me off your list, please.' },
    ] } });
    const page = await s.page({ signIn: s.alice });
    await page.goto(`/calls/${live.id}`);
    const alert = page.getByRole('status').filter({ hasText: 'Asked not to be called again' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Found by the built-in phrases');
    await page.getByText('Called from +12125550181: same area code as the contact').waitFor();
    const listed = await get(`/api/v1/suppressions/lookup?phone_number=${encodeURIComponent(live.contactPhone)}`);
    expect(listed).toMatchObject({ suppressed: true, suppression: { source: 'opt_out', call_id: live.id } });
    await page.context().close();
  });

  it('sets the account\'s calls at once and the inbound reserve: a reserve without a cap is refused next to its field', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto('/compliance/settings');
    const max = labelled(page, 'Calls at once (account)');
    const reserve = labelled(page, 'Kept for inbound calls');
    await expect.poll(() => reserve.inputValue()).toBe('0');
    await page.getByText('In progress now: 0 outbound, 0 inbound.').waitFor();
    await reserve.fill('2');
    await page.getByRole('button', { name: 'Update call capacity' }).click();
    await expect.poll(() => describedBy(reserve)).toMatch(/reserved_inbound_calls needs max_concurrent_calls/);
    expect(await get('/api/v1/compliance/capacity')).toMatchObject({ max_concurrent_calls: null, reserved_inbound_calls: 0 });
    await max.fill('10');
    await page.getByRole('button', { name: 'Update call capacity' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await get('/api/v1/compliance/capacity')).toMatchObject({ max_concurrent_calls: 10, reserved_inbound_calls: 2, outbound_room: 8 });
    await page.getByText('In progress now: 0 outbound, 0 inbound; 8 more outbound may start.').waitFor();
    await settled(page);
    await expectAccessible(page, 'call capacity');
    await page.context().close();
  });
});
