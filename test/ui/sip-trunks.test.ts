import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * SIP trunks in Debian's Chromium (issue 29): the owner creates, edits and deletes a trunk on the
 * Voice connections page, the password shown masked only; the campaign form's SIP trunk picker
 * names the trunk of a campaign (PUT /campaigns/{id}/sip-trunk); "Test the route" places one call
 * to a typed number and shows the trunk's SIP answer.
 */
const PASSWORD = 'browser-trunk-password-0029';
let s: BrowserScene;

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
}, 120_000);
afterAll(async () => s?.close());

const trunks = async () => (await s.t.request({ method: 'GET', url: '/api/v1/sip-trunks/', headers: s.alice.headers })).json().data as { id: number; name: string; username: string; gateways: string[]; caller_ids: string[]; password: string }[];

describe.skipIf(!HAS_BROWSER)('SIP trunks in the browser', () => {
  it('creates, edits and deletes a trunk; the password never comes back in the clear', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto('/voice-connections');
    await page.getByRole('button', { name: 'New SIP trunk' }).click();
    const dialog = page.getByRole('dialog', { name: 'New SIP trunk' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme carrier');
    await dialog.getByRole('textbox', { name: /Username/ }).fill('acme');
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('textbox', { name: /Caller IDs/ }).fill('+14155550150\n+14155550151');
    await dialog.getByRole('button', { name: 'Create trunk' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const section = page.getByRole('region', { name: 'SIP trunks' });
    await section.getByRole('cell', { name: 'Acme carrier', exact: true }).waitFor();
    expect(await page.content()).not.toContain(PASSWORD);
    expect(await section.textContent()).toContain('+14155550150, +14155550151');
    const [saved] = await trunks();
    expect(saved).toMatchObject({ name: 'Acme carrier', username: 'acme', caller_ids: ['+14155550150', '+14155550151'], gateways: [] });
    expect(saved!.password).toMatch(/^\*{4}0029$/);
    expect(await section.textContent()).toContain(saved!.password);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, 'voice connections with a SIP trunk');
    await screenshot(page, 'sip-trunks-1280');

    // A refused gateway shows under its field; the password left empty is kept.
    await section.getByRole('button', { name: 'Edit trunk Acme carrier' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Acme carrier' });
    await edit.getByRole('textbox', { name: /Gateways/ }).fill('10.0.0.1');
    await edit.getByRole('button', { name: 'Save trunk' }).click();
    await edit.getByText(/public address/).waitFor();
    await edit.getByRole('textbox', { name: /Gateways/ }).fill('gw.example.net:5080');
    await edit.getByRole('button', { name: 'Save trunk' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await trunks())[0]!.gateways).toEqual(['gw.example.net:5080']);
    expect((await trunks())[0]!.password).toBe(saved!.password);

    // At phone width the trunk is a card with its actions.
    const narrow = await s.page({ signIn: s.alice, width: 390 });
    await narrow.goto('/voice-connections');
    await narrow.getByText('Caller IDs: +14155550150, +14155550151').waitFor();
    await narrow.waitForLoadState('networkidle');
    await screenshot(narrow, 'sip-trunks-390');
    await narrow.context().close();

    await section.getByRole('button', { name: 'Delete trunk Acme carrier' }).click();
    await page.getByRole('dialog', { name: 'Delete the SIP trunk?' }).getByRole('button', { name: 'Delete trunk' }).click();
    await section.getByText('No SIP trunks yet.').waitFor();
    expect(await trunks()).toEqual([]);
    await page.context().close();
  });

  it('names a campaign\'s trunk from the campaign form', async () => {
    const trunk = (await s.t.request({ method: 'POST', url: '/api/v1/sip-trunks/', headers: s.alice.headers, payload: { name: 'Picker trunk', username: 'acme', password: PASSWORD, caller_ids: ['+14155550150'] } })).json();
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Trunk calls', campaign_sip: 'sip:trunk.example.com' });
    const page = await s.page({ signIn: s.alice });
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole('heading', { name: 'Trunk calls', level: 2 }).waitFor();
    await page.getByRole('combobox', { name: 'SIP trunk' }).click();
    await page.getByRole('option', { name: 'Picker trunk' }).click();
    const named = async () => (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}/sip-trunk`, headers: s.alice.headers })).json().sip_trunk_id;
    await expect.poll(named).toBe(trunk.id);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'campaign-sip-trunk-1280');
    await page.context().close();
  });

  it('tests the route: one call to a typed number, and the trunk\'s SIP answer on the form', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Route check', campaign_sip: 'sip:carrier.example.com;transport=tls' });
    const contact = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: '+14155550177', status: 'new', contact_data: { _sim: { sip_code: 486 } } } });
    expect(contact.statusCode, contact.body).toBe(200);
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole('button', { name: 'Test the route' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test the SIP route' });
    await dialog.getByRole('textbox', { name: 'Number to call' }).fill('not a phone');
    await dialog.getByRole('button', { name: 'Call now' }).click();
    await dialog.getByRole('alert').getByText(/not a valid phone number/).waitFor();
    await dialog.getByRole('textbox', { name: 'Number to call' }).fill('+1 415 555 0177');
    await dialog.getByRole('button', { name: 'Call now' }).click();
    const result = dialog.getByRole('status', { name: 'Test call' });
    await result.getByText('SIP 486 Busy Here').waitFor({ timeout: 20_000 });
    expect(await result.textContent()).toContain('sip:+14155550177@carrier.example.com;transport=tls');
    await result.getByText('busy_or_rejected').waitFor();
    const calls = (await s.t.request({ method: 'GET', url: '/api/v1/calls/?phone_number=%2B14155550177', headers: s.alice.headers })).json();
    expect(calls.data).toHaveLength(1);
    expect(calls.data[0]).toMatchObject({ call_type: null, status: 'busy_or_rejected' });
    await expectAccessible(page, 'the route test dialog');
    await screenshot(page, 'sip-route-test-1280');
    await page.context().close();

    // At phone width the dialled URI wraps inside the dialog instead of running out of it.
    const narrow = await s.page({ signIn: s.alice, width: 390 });
    await narrow.goto(`/campaigns/${campaign.id}`);
    await narrow.getByRole('button', { name: 'Test the route' }).click();
    const small = narrow.getByRole('dialog', { name: 'Test the SIP route' });
    await small.getByRole('textbox', { name: 'Number to call' }).fill('+1 415 555 0177');
    await small.getByRole('button', { name: 'Call now' }).click();
    await small.getByText('SIP 486 Busy Here').waitFor({ timeout: 20_000 });
    const status = small.getByRole('status', { name: 'Test call' });
    expect(await status.evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(narrow, 'sip-route-test-390');
    await narrow.context().close();
  });
});
