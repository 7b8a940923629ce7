import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { addContactViaApi, choose, describedBy, importCsv, labelled, listContacts } from './contacts-helpers.ts';

/**
 * The Contacts page as an operator uses it, in Debian's Chromium against the whole service:
 * a CSV import with its progress and row errors, the filters and pages of the table, the add
 * form's field errors, and queueing chosen contacts. Things are found by role, label and text.
 *
 * The dialer runs only when woken here (its tick is an hour): contacts added for the filter and
 * form tests stay as they are, and queueing chosen contacts, which wakes it, is seen as their calls.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene({ DIALER_TICK_MS: '3600000' });
}, 60_000);
afterAll(async () => s?.close());

// The last one is a formula: the table shows it as sent, the downloaded file neutralised with a leading ' (ui/src/components/csv.ts).
const BAD = [{ at: 100, text: 'not-a-number' }, { at: 250, text: 'no phone here' }, { at: 400, text: '=1+2', inFile: "'=1+2" }];

async function openContacts(width = 1280) {
  const page = await s.page({ width, signIn: s.alice });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByRole('heading', { name: 'Contacts', level: 2 }).waitFor();
  return page;
}

describe.skipIf(!HAS_BROWSER)('the Contacts page', () => {
  it('imports a 500-row CSV with live progress, lists and downloads the 3 rows it could not import', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'CSV import target' });
    await createCampaignViaApi(s.t, s.alice.headers, { title: 'CSV import other' });
    const { csv } = importCsv(BAD);
    const page = await openContacts();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import CSV' });
    await choose(page, dialog, 'Campaign', 'CSV import target');
    const chooser = page.waitForEvent('filechooser');
    await labelled(dialog, 'CSV file').click();
    await (await chooser).setFiles({ name: 'contacts-500.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByText('contacts-500.csv').waitFor();
    await dialog.getByRole('button', { name: 'Upload and import' }).click();

    const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
    await progress.waitFor();
    await expect.poll(() => dialog.getByText(/^\d+ of \d+ rows$/).textContent(), { timeout: 30_000 }).toBe('503 of 503 rows');
    await dialog.getByText('Import completed', { exact: false }).waitFor();
    expect(await progress.getAttribute('aria-valuenow')).toBe('100');
    const counts = await dialog.getByText(/^Created \d+/).textContent();
    expect(counts).toMatch(/Created 500\b/);
    expect(counts).toMatch(/Skipped 0\b/);
    expect(counts).toMatch(/Failed 3\b/);

    const errors = dialog.getByRole('table', { name: 'Import errors' });
    const errorRows = errors.locator('tbody').getByRole('row');
    expect(await errorRows.count()).toBe(3);
    for (const [i, b] of BAD.entries()) {
      const cells = await errorRows.nth(i).getByRole('cell').allTextContents();
      expect(cells).toEqual([String(b.at + 1), b.text, 'not a valid phone number']);
    }
    await screenshot(page, 'contacts-import-1280');

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download errors' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^import-\d+-errors\.csv$/);
    const text = await readFile(await file.path(), 'utf8');
    expect(text.trim().split(/\r?\n/)).toEqual([
      'row,phone_number,reason',
      ...BAD.map((b) => `${b.at + 1},${b.inFile ?? b.text},not a valid phone number`),
    ]);

    const api = await listContacts(s, `campaign_id=${campaign.id}&limit=1`);
    expect(api.count).toBe(500);
    await page.context().close();
  });

  it('filters the table by status and campaign, pages through it, and counts as the API does', async () => {
    const a = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Filter A' });
    const b = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Filter B' });
    for (let i = 0; i < 30; i++) await addContactViaApi(s, a.id, `+1646555${String(2000 + i)}`, 'new');
    for (let i = 0; i < 6; i++) await addContactViaApi(s, a.id, `+1646555${String(2100 + i)}`, 'no_answer');
    for (let i = 0; i < 8; i++) await addContactViaApi(s, b.id, `+1646555${String(2200 + i)}`, 'new');
    const page = await openContacts();
    const main = page.getByRole('main');
    const table = main.getByRole('table', { name: 'Contacts' });
    const countText = main.getByText(/^\d+ contacts?\b/);

    await choose(page, main, 'Campaign', 'Filter A');
    await choose(page, main, 'Status', 'New');
    const api = await listContacts(s, `campaign_id=${a.id}&status=new&limit=1`);
    expect(api.count).toBe(30);
    await expect.poll(() => countText.textContent()).toBe(`${api.count} contacts`);
    const bodyRows = table.locator('tbody').getByRole('row');
    await expect.poll(() => bodyRows.count()).toBe(25);
    const seen = new Set<string>();
    const readPage = async () => {
      for (const row of await bodyRows.all()) {
        const cells = await row.getByRole('cell').allTextContents();
        expect(cells[2]).toBe('New');
        expect(cells[3]).toBe('Filter A');
        seen.add(cells[1]!);
      }
    };
    await readPage();
    const pages = main.getByRole('navigation', { name: 'Contact pages' });
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => bodyRows.count()).toBe(5);
    await readPage();
    expect(seen.size).toBe(30); // every contact of the filter, each once, over the two pages

    // Another status of the same campaign: the count follows the API's again (one page, no pagination).
    await choose(page, main, 'Status', 'No answer');
    const noAnswer = await listContacts(s, `campaign_id=${a.id}&status=no_answer&limit=1`);
    await expect.poll(() => countText.textContent()).toBe(`${noAnswer.count} contacts`);
    expect(await bodyRows.count()).toBe(6);
    expect(await pages.count()).toBe(0);
    await choose(page, main, 'Campaign', 'Filter B');
    await choose(page, main, 'Status', 'New');
    const bNew = await listContacts(s, `campaign_id=${b.id}&status=new&limit=1`);
    await expect.poll(() => countText.textContent()).toBe(`${bNew.count} contacts`);
    expect(bNew.count).toBe(8);
    await page.context().close();
  });

  it('shows the 422 of a bad phone number under the field and creates nothing, then adds a good one', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Add form target' });
    const page = await openContacts();
    await page.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add contact' });
    await choose(page, dialog, 'Campaign', 'Add form target');
    const phone = labelled(dialog, 'Phone number');
    await phone.fill('not-a-number');
    await dialog.getByLabel('Name', { exact: true }).fill('Ada');
    await dialog.getByRole('button', { name: 'Add contact' }).click();

    // The API's own message for the field, shown with the field (its accessible description).
    const direct = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: 'not-a-number', status: 'new' } });
    expect(direct.statusCode).toBe(422);
    const message = (direct.json().detail as { loc: string[]; msg: string }[]).find((d) => d.loc[1] === 'phone_number')!.msg;
    expect(message).toBeTruthy();
    await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(phone)).toContain(message);
    expect(await dialog.getByText(message, { exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('alert').count()).toBe(0); // under the field, not repeated above the button
    expect((await listContacts(s, `campaign_id=${campaign.id}&limit=1`)).count).toBe(0);

    await phone.fill('+13105550188');
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('main').getByRole('table', { name: 'Contacts' }).getByRole('row', { name: /\+13105550188/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['+13105550188', 'New', 'Add form target', 'Ada']));
    const created = await listContacts(s, `campaign_id=${campaign.id}`);
    expect(created.count).toBe(1);
    expect(created.data[0]).toMatchObject({ phone_number: '+13105550188', status: 'new' });
    await page.context().close();
  });

  it('queues the two selected contacts and leaves the others as they were', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Queue selected target' });
    const [one, two, three] = [
      await addContactViaApi(s, campaign.id, '+17185550401'),
      await addContactViaApi(s, campaign.id, '+17185550402'),
      await addContactViaApi(s, campaign.id, '+17185550403'),
    ];
    const page = await openContacts();
    const main = page.getByRole('main');
    await choose(page, main, 'Campaign', 'Queue selected target');
    await expect.poll(() => main.getByText(/^\d+ contacts?\b/).textContent()).toBe('3 contacts');
    const queueButton = main.getByRole('button', { name: 'Queue selected' });
    expect(await queueButton.isDisabled()).toBe(true);
    await main.getByRole('checkbox', { name: `Select ${one!.phone_number}` }).check();
    await main.getByRole('checkbox', { name: `Select ${three!.phone_number}` }).check();
    await expect.poll(() => main.getByText(/^\d+ contacts?\b/).textContent()).toBe('3 contacts · 2 selected');
    await queueButton.click();
    await page.getByText('Queued 2 contacts').waitFor();

    // Queued means dialled: the operation wakes the dialer, which calls the two chosen contacts, and only them.
    const callsTo = async () => Object.fromEntries(await Promise.all([one!, two!, three!].map(async (c) => [c.id,
      (await s.t.request({ method: 'GET', url: `/api/v1/calls/?contact_id=${c.id}`, headers: s.alice.headers })).json().count as number])));
    await expect.poll(callsTo, { timeout: 15_000 }).toEqual({ [one!.id]: 1, [two!.id]: 0, [three!.id]: 1 });
    const statusOf = async () => Object.fromEntries((await listContacts(s, `campaign_id=${campaign.id}`)).data.map((c) => [c.id, c.status]));
    expect((await statusOf())[two!.id]).toBe('new');
    // The table shows it too, after the page refreshes itself.
    const table = main.getByRole('table', { name: 'Contacts' });
    await expect.poll(() => table.getByRole('row', { name: /\+17185550401/ }).getByText('New', { exact: true }).count()).toBe(0);
    await expect.poll(() => table.getByRole('row', { name: /\+17185550402/ }).getByText('New', { exact: true }).count()).toBe(1);
    expect(await main.getByText(/^\d+ contacts?\b/).textContent()).toBe('3 contacts');
    await page.context().close();
  });

  // Last: it makes the account's contacts many. Past 1000 matches the API estimates the total (count_exact false).
  it('says "about N contacts" when the API estimated the total, and the exact number for a campaign', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Many contacts' });
    await sql`
      INSERT INTO contacts (owner_id, campaign_id, phone_number, status, creation_method)
      SELECT ${s.alice.id}, ${campaign.id}, '+1628' || (5000000 + i)::text, 'new', 'api' FROM generate_series(1, 1500) AS i`.execute(s.t.deps.db);
    await sql`ANALYZE contacts`.execute(s.t.deps.db);
    const page = await openContacts();
    const main = page.getByRole('main');
    await expect.poll(() => main.getByText(/^(about )?[\d,]+ contacts?\b/).textContent()).toMatch(/^about \d{1,3}(,\d{3})+ contacts$/);
    await choose(page, main, 'Campaign', 'Many contacts');
    await expect.poll(() => main.getByText(/^(about )?[\d,]+ contacts?\b/).textContent()).toBe('1500 contacts');
    await page.context().close();
  });
});
