import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { choose, labelled, listContacts } from './contacts-helpers.ts';

/**
 * The import dialog's preview in Debian's Chromium: the chosen file's header and first rows read
 * in the browser (an Excel `sep=;` file here), the column pickers preselected by guess and then by
 * the last mapping (kept in localStorage across a reload), and the mapping sent with the upload.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene({ DIALER_TICK_MS: '3600000' });
}, 60_000);
afterAll(async () => s?.close());

async function openDialog(page: Page, campaign: string, file: { name: string; csv: string }) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import CSV' });
  await choose(page, dialog, 'Campaign', campaign);
  const chooser = page.waitForEvent('filechooser');
  await labelled(dialog, 'CSV file').click();
  await (await chooser).setFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.csv) });
  await dialog.getByRole('table', { name: 'File preview' }).waitFor();
  return dialog;
}
const picked = (dialog: Locator, label: string) => labelled(dialog, label).inputValue();

describe.skipIf(!HAS_BROWSER)('the CSV import preview', () => {
  it('previews a sep=; file, maps its columns with pickers, imports with that mapping and remembers it', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Preview target' });
    const page = await s.page({ width: 1280, signIn: s.alice, bypassCSP: true });
    const csv = '\uFEFFsep=;\r\nName;Mobile;Zone;City\r\nAnn;+12125550701;Europe/Berlin;"Berlin; Mitte"\r\nBob;+12125550702;;Paris\r\n';
    const dialog = await openDialog(page, 'Preview target', { name: 'excel.csv', csv });

    const table = dialog.getByRole('table', { name: 'File preview' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Mobile (phone)', 'Zone (time zone)', 'City']);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['Ann', '+12125550701', 'Europe/Berlin', 'Berlin; Mitte']);
    expect(await picked(dialog, 'Phone column')).toBe('Mobile');
    expect(await picked(dialog, 'Time zone column (optional)')).toBe('Zone');
    await dialog.getByText("Into the contact's data: Name, City.").waitFor();
    await dialog.getByText('Separator: semicolon.', { exact: false }).waitFor();
    await expectAccessible(page, 'the import dialog with its preview');
    await screenshot(page, 'contacts-import-preview-1280');

    // Another pick moves the column's mark in the preview; the first mapping is the one imported.
    await choose(page, dialog, 'Time zone column (optional)', 'City');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Mobile (phone)', 'Zone', 'City (time zone)']);
    await dialog.getByText("Into the contact's data: Name, Zone.").waitFor();
    await choose(page, dialog, 'Time zone column (optional)', 'Zone');
    await dialog.getByRole('button', { name: 'Upload and import' }).click();
    await dialog.getByText('Import completed', { exact: false }).waitFor({ timeout: 30_000 });
    const contacts = await listContacts(s, `campaign_id=${campaign.id}`);
    expect(contacts.data.map((c) => c.phone_number).sort()).toEqual(['+12125550701', '+12125550702']);
    const rows = await s.t.deps.db.selectFrom('contacts').select(['phone_number', 'contact_data', 'timezone']).where('campaign_id', '=', campaign.id).orderBy('phone_number').execute();
    expect(rows).toEqual([
      { phone_number: '+12125550701', contact_data: { name: 'Ann', city: 'Berlin; Mitte' }, timezone: 'Europe/Berlin' },
      { phone_number: '+12125550702', contact_data: { name: 'Bob', city: 'Paris' }, timezone: 'America/New_York' },
    ]);

    // After a reload, a file whose header would otherwise guess `Phone` gets the remembered `Mobile`.
    await page.reload();
    const again = await openDialog(page, 'Preview target', { name: 'second.csv', csv: 'Phone,Mobile,Zone\n+12125550703,+12125550704,UTC\n' });
    expect(await picked(again, 'Phone column')).toBe('Mobile');
    expect(await picked(again, 'Time zone column (optional)')).toBe('Zone');
    await screenshot(page, 'contacts-import-preview-remembered');
  }, 90_000);

  it('says a binary file cannot be previewed and keeps the upload disabled', async () => {
    await createCampaignViaApi(s.t, s.alice.headers, { title: 'Preview binary' });
    const page = await s.page({ width: 1280, signIn: s.alice, bypassCSP: true });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV' });
    await choose(page, dialog, 'Campaign', 'Preview binary');
    const chooser = page.waitForEvent('filechooser');
    await labelled(dialog, 'CSV file').click();
    await (await chooser).setFiles({ name: 'photo.csv', mimeType: 'text/csv', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]) });
    await dialog.getByText('Cannot preview this file').waitFor();
    expect(await dialog.getByRole('button', { name: 'Upload and import' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the import dialog with an unreadable file');
  }, 60_000);
});
