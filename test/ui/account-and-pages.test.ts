import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { createFinishedCall } from '../helpers/finished-call.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';
import { choose, describedBy } from './ops-helpers.ts';

/**
 * The first day's rough edges, in Debian's Chromium against the whole service with private webhook
 * targets refused (the default): the Profile area and its password change, not-found pages for
 * addresses that name nothing, the favicon, a webhook URL refused as it is saved, and a call's
 * skipped delivery on its page.
 */
let s: BrowserScene;
let campaign: { id: number; title: string };
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'First day campaign' });
}, 60_000);
afterAll(() => s?.close());

const me = async (headers: Record<string, string>) => (await s.t.request({ method: 'GET', url: '/api/v1/users/me', headers })).statusCode;
const sessionCookieOf = async (page: Awaited<ReturnType<BrowserScene['page']>>) =>
  (await page.context().cookies()).find((c) => c.name === 'vc_session')!.value;

describe.skipIf(!HAS_BROWSER)('the account page', () => {
  it('is the sidebar\'s Profile; changes the password, refusing a wrong current one, and keeps this browser signed in', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    const elsewhere = await s.page({ signIn: s.alice });
    const otherCookie = { cookie: `vc_session=${await sessionCookieOf(elsewhere)}` };
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('heading', { name: 'Account', level: 2 }).waitFor();
    expect(await page.getByRole('link', { name: 'API keys', exact: true }).count()).toBe(0);
    const form = page.getByRole('form', { name: 'Change password' });

    await form.getByLabel(/^Current password/).fill('not the password');
    await form.getByLabel(/^New password/).fill('a new password for alice');
    await form.getByLabel(/^Repeat the new password/).fill('a new password for alice');
    await form.getByRole('button', { name: 'Change password' }).click();
    const current = form.getByLabel(/^Current password/);
    // The answer is said under the field and read with it (a password input marks itself data-invalid).
    await expect.poll(() => describedBy(current)).toContain('This is not your current password');
    expect(await current.getAttribute('data-invalid')).toBe('true');
    expect(await me(otherCookie)).toBe(200);
    await expectAccessible(page, 'the account page with a refused password');
    await screenshot(page, 'account-password-refused-1280');

    await current.fill(s.alice.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    expect(await me(otherCookie)).toBe(401);
    // This browser stays signed in (a fresh session), and the next sign-in takes the new password.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns', exact: true }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
    expect(await me({ cookie: `vc_session=${await sessionCookieOf(page)}` })).toBe(200);
    s.alice.password = 'a new password for alice';
    await elsewhere.context().close();
    await page.context().close();
  });
});

describe.skipIf(!HAS_BROWSER)('addresses and assets', () => {
  it('answers an address whose id is not a number, or names nothing, with a not-found page', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    for (const [path, heading, back] of [
      ['/calls/undefined', 'Call not found', 'All calls'], ['/calls/abc', 'Call not found', 'All calls'], ['/calls/999999', 'Call not found', 'All calls'],
      ['/campaigns/abc', 'Campaign not found', 'All campaigns'], ['/campaigns/999999', 'Campaign not found', 'All campaigns'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
      expect(await page.getByRole('alert').count(), path).toBe(0);
      expect(await page.getByRole('link', { name: back }).count(), path).toBe(1);
    }
    await expectAccessible(page, 'a not-found page');
    await screenshot(page, 'campaign-not-found-1280');
    await page.context().close();
  });

  it('links a favicon among the hashed assets, and answers /favicon.ico with it', async () => {
    const page = await s.page();
    await page.goto('/');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toMatch(/^\/assets\/favicon-[\w-]+\.svg$/);
    for (const path of [href!, '/favicon.ico']) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(200);
      expect(res.headers()['content-type']).toBe('image/svg+xml');
    }
    await page.context().close();
  });
});

describe.skipIf(!HAS_BROWSER)('webhooks', () => {
  it('says under the URL field, as the form is saved, that a private address is blocked and why', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.goto('/integrations');
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Local hook');
    const url = dialog.getByRole('textbox', { name: 'URL', exact: true });
    await url.fill('http://192.168.1.20/hook');
    await choose(page, 'Campaigns', campaign.title, dialog);
    await page.keyboard.press('Escape');
    await dialog.getByRole('textbox', { name: 'Request schema', exact: true }).fill('name - the caller\'s name');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    const said = await describedBy(url);
    expect(said).toContain('192.168.1.20 is a private address');
    expect(said).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true');
    // Far above the button in the dialog: the field takes the focus, so it is in view with its message.
    await expect.poll(() => url.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    await screenshot(page, 'webhook-url-blocked-1280');
    await page.context().close();
  });

  it('shows on the call page that a webhook skipped the call, and which filter did', async () => {
    const hook = await s.t.request({
      method: 'POST', url: '/api/v1/integrations/webhooks/', headers: s.alice.headers,
      payload: { name: 'Interested only', url: 'https://93.184.215.14/hook', request_schema: 'name - the caller\'s name', campaign_ids: [campaign.id] },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const call = await createFinishedCall(s.t.deps.db, { ownerId: s.alice.id, campaignId: campaign.id, action_status: null });
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/calls/${call.id}`);
    const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
    const row = deliveries.getByRole('row', { name: /Interested only/ });
    await row.getByText('Skipped: Only interested calls', { exact: false }).waitFor();
    expect(await row.textContent()).toContain('this call\'s outcome was none');
    expect(await row.getByText('Nothing sent').count()).toBe(1);
    await expectAccessible(page, 'a call with a skipped delivery');
    await screenshot(page, 'call-skipped-delivery-1280');
    await page.context().close();
  });
});
