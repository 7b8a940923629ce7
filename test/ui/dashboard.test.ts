import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../fakes/webhook-receiver.ts';
import { createCampaignViaApi, createSubUser } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, signInAs, type BrowserScene } from './browser-scene.ts';

/**
 * What an operator does in the dashboard, in Debian's Chromium against the whole service. Each
 * step finds things as a person does: by their text, role and label.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene();
}, 60_000);
afterAll(async () => s?.close());

const openWindow = { call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' };
const NAV = ['Campaigns', 'Contacts', 'Calls', 'Live', 'Analytics', 'Integrations', 'Profile'];
// The Profile link opens its Account tab; the other tabs by address.
const PROFILE_TABS = [['API keys', '/api-keys'], ['Sub-users', '/sub-users']];

describe.skipIf(!HAS_BROWSER)('the dashboard', () => {
  it('signs in with the labelled form, names the main navigation, and signs out for good', async () => {
    const page = await s.page();
    await page.goto('/');
    await page.getByLabel('Email', { exact: true }).fill(s.alice.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/incorrect|invalid/i);
    await signInAs(page, s.alice);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of NAV) expect(await nav.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'vc_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The old cookie is dead: sent again by hand, the API refuses it.
    const replay = await page.context().request.get('/api/v1/campaigns/', { headers: { cookie: `vc_session=${session!.value}` } });
    expect(replay.status()).toBe(401);
    await page.context().close();
  });

  it('creates a campaign from the form and lists it as active', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Title').fill('Browser spring offer');
    await page.getByLabel('Calling from').fill('00:00');
    await page.getByLabel('Calling until').fill('23:59');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    // Created, the campaign's own page opens; the list is one click away.
    await page.getByRole('heading', { name: 'Browser spring offer', level: 2 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns', exact: true }).click();
    const row = page.getByRole('row', { name: /Browser spring offer/ });
    await row.waitFor();
    expect(await row.getByText('active', { exact: true }).count()).toBe(1);
    const api = await s.t.request({ method: 'GET', url: '/api/v1/campaigns/?title=Browser%20spring', headers: s.alice.headers });
    expect(api.json().data[0]).toMatchObject({ title: 'Browser spring offer', call_allowed_from_time: '00:00:00' });
    await page.context().close();
  });

  it('queues contacts, shows their calls finishing live, and a call as a conversation with its webhook payload', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Live calls', ...openWindow, campaign_data: { prompt: 'Be brief.' } });
    const receiver = await startReceiver();
    const hook = await s.t.request({ method: 'POST', url: '/api/v1/integrations/webhooks/', headers: s.alice.headers, payload: { name: 'CRM', url: `${receiver.url}/crm`, request_schema: { name: 'client name' }, campaign_ids: [campaign.id], only_interested: false } });
    expect(hook.statusCode, hook.body).toBe(200);
    for (const phone of ['+12125550301', '+12125550302']) {
      const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: phone, status: 'new', contact_data: { name: 'Ann', _sim: { status: 'finished', duration: 30 } } } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('button', { name: 'Queue new contacts of Live calls' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calls', exact: true }).click();
    const table = page.getByRole('table', { name: 'Calls' });
    // The page refreshes itself while calls are in progress: both end without a reload.
    await expect.poll(async () => table.getByText('Finished', { exact: true }).count(), { timeout: 30_000 }).toBe(2);
    await table.getByRole('link', { name: /^Call \d+$/ }).first().click();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    expect(await page.getByText('Assistant', { exact: true }).count()).toBeGreaterThan(0);
    // The payload the webhook sent for this call, as the receiver got it.
    const deliveries = page.getByRole('table', { name: 'Webhook deliveries' });
    await expect.poll(() => deliveries.getByText('Sent', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    const sent = JSON.parse(receiver.requests.find((r) => r.url === '/crm')!.body) as Record<string, unknown>;
    expect(await deliveries.locator('pre').first().textContent()).toContain(JSON.stringify(sent.name));
    await receiver.close();
    await page.context().close();
  });

  it('creates an API key, shows it once, and deletes it after a confirmation', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.locator('code').first().textContent();
    expect(shown).toBeTruthy();
    const works = await s.t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: { 'x-api-key': shown! } });
    expect(works.statusCode).toBe(200);
    await page.reload();
    expect(await page.getByText(shown!).count()).toBe(0);
    await page.getByRole('button', { name: 'Delete key browser key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
    await expect.poll(() => page.getByRole('row', { name: /browser key/ }).count()).toBe(0);
    expect((await s.t.request({ method: 'GET', url: '/api/v1/campaigns/', headers: { 'x-api-key': shown! } })).statusCode).toBe(401);
    await page.context().close();
  });

  it('lets the owner create a sub-user and grant it a campaign in the profile area', async () => {
    await createCampaignViaApi(s.t, s.alice.headers, { title: 'Profile grant campaign' });
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('link', { name: /^Profile of / }).click();
    await page.getByRole('tab', { name: 'Sub-users' }).click();
    await page.getByRole('button', { name: 'New sub-user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Username').fill('x');
    await dialog.getByRole('button', { name: 'Create sub-user' }).click();
    // The API's 422 under the field, nothing created.
    await expect.poll(() => dialog.getByText(/username|characters/i).count()).toBeGreaterThan(1);
    await dialog.getByLabel('Username').fill('browser-sub');
    await dialog.getByLabel('Password', { exact: true }).fill('a sub-user password');
    await dialog.getByRole('button', { name: 'Create sub-user' }).click();
    await page.getByRole('row', { name: /browser-sub/ }).waitFor();
    await page.getByRole('combobox', { name: 'Campaigns of browser-sub' }).click();
    await page.getByRole('option', { name: 'Profile grant campaign' }).click();
    const sub = (await s.t.request({ method: 'GET', url: '/api/v1/sub-users/', headers: s.alice.headers })).json().data.find((u: { username: string }) => u.username === 'browser-sub');
    await expect.poll(async () => (await s.t.request({ method: 'GET', url: `/api/v1/sub-users/${sub.id}/campaigns`, headers: s.alice.headers })).json().data.map((c: { title: string }) => c.title)).toEqual(['Profile grant campaign']);
    await page.context().close();
  });

  it('shows a sub-user only the campaigns granted to it', async () => {
    const granted = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Granted to the sub-user' });
    await createCampaignViaApi(s.t, s.alice.headers, { title: 'Kept from the sub-user' });
    const sub = await createSubUser(s.t, s.alice.id, [granted.id]);
    const page = await s.page({ signIn: { email: sub.email, password: sub.password } });
    await page.getByRole('row', { name: /Granted to the sub-user/ }).waitFor();
    expect(await page.getByText('Kept from the sub-user').count()).toBe(0);
    await page.context().close();
  });

  // One test per width: each renders every page and runs axe on it, which takes tens of seconds
  // on a loaded 2-core machine (CI timed the two widths together out at 60 s).
  it.each([1280, 390])('has no serious accessibility violation on any page at %i px wide', async (width) => {
    const page = await s.page({ width, signIn: s.alice, bypassCSP: true });
    for (const name of NAV) {
      const path = name === 'Profile' ? '/account' : `/${name.toLowerCase()}`;
      await page.goto(path);
      await page.getByRole('heading', { name: name === 'Profile' ? 'Account' : name, level: 2 }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `${name} at ${width} px`);
      await screenshot(page, `${path.slice(1)}-${width}`);
    }
    for (const [name, path] of PROFILE_TABS) {
      await page.goto(path!);
      await page.getByRole('heading', { name, level: 2 }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `${name} at ${width} px`);
      await screenshot(page, `${path!.slice(1)}-${width}`);
    }
    await page.context().close();
  }, 120_000);

  it('has no serious accessibility violation on the sign-in page', async () => {
    const signIn = await s.page({ width: 390, bypassCSP: true });
    await signIn.goto('/');
    await signIn.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(signIn, 'sign-in');
    await screenshot(signIn, 'sign-in-390');
    await signIn.context().close();
  });
});
