import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi, createSubUser } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * A campaign's own page in Debian's Chromium: the form of every field, its actions and the prompt
 * history. What the page shows is checked against what the API then answers.
 */
let s: BrowserScene;
beforeAll(async () => {
  if (HAS_BROWSER) s = await browserScene();
}, 60_000);
afterAll(async () => s?.close());

const getCampaign = async (id: number) => (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${id}`, headers: s.alice.headers })).json();
const idInUrl = (page: Page) => Number(/\/campaigns\/(\d+)$/.exec(page.url())?.[1]);

/**
 * Opens a select, types to filter it, picks the option. On a loaded machine the filtered list can
 * re-render under the click (seen: the option resolved but "not visible" for 30 s after the page
 * scrolled), so a failed pick opens the list again, up to three times.
 */
async function choose(page: Page, combobox: string, option: string, typed?: string) {
  const box = page.getByRole('combobox', { name: combobox });
  for (let attempt = 1; ; attempt++) {
    await box.click();
    if (typed) await box.fill(typed);
    try {
      await page.getByRole('option', { name: option, exact: true }).click({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

describe.skipIf(!HAS_BROWSER)('a campaign\'s page', () => {
  let scheduled: number;

  it('creates a campaign with a weekly schedule, retry intervals and a usage limit, and the API has every field exactly', async () => {
    const assistant = (await s.t.request({ method: 'POST', url: '/api/v1/assistants/', headers: s.alice.headers, payload: { name: 'Ava', provider: 'sim' } })).json();
    const page = await s.page({ signIn: s.alice });
    await page.goto('/campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign', level: 2 }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Weekly spring calls');
    await page.getByRole('textbox', { name: 'Description' }).fill('Spring offer to past buyers');
    await choose(page, 'Assistant', 'Ava (sim)');
    await page.getByRole('textbox', { name: 'Campaign phone' }).fill('+14155550100');
    await page.getByRole('textbox', { name: 'Campaign SIP' }).fill('sip:agent@example.com');
    await page.getByRole('textbox', { name: 'Maximum call attempts' }).fill('4');
    await page.getByRole('textbox', { name: 'Concurrent call limit' }).fill('2');
    await page.getByLabel('Calling from').fill('08:00');
    await page.getByLabel('Calling until').fill('20:00');
    await page.getByRole('checkbox', { name: 'Queue new contacts for calling as soon as they are added' }).check();
    await page.getByRole('checkbox', { name: 'Automatic AI messages' }).check();
    await page.getByRole('button', { name: 'Add retry interval' }).click();
    await page.getByRole('textbox', { name: 'Retry 1 after (minutes)' }).fill('30');
    await page.getByRole('button', { name: 'Add retry interval' }).click();
    await page.getByRole('textbox', { name: 'Retry 2 after (minutes)' }).fill('1440');
    await page.getByRole('switch', { name: 'Call only on a weekly schedule' }).check();
    await choose(page, 'Schedule time zone', 'Europe/Berlin', 'Europe/Berl');
    await page.getByRole('switch', { name: /Only on certain days and hours/ }).check();
    await page.getByRole('checkbox', { name: 'Calls on Monday' }).check();
    await page.getByLabel('Monday until (1)').fill('12:00');
    await page.getByRole('checkbox', { name: 'Calls on Wednesday' }).check();
    await page.getByLabel('Wednesday from (1)').fill('13:00');
    await page.getByLabel('Wednesday until (1)').fill('17:30');
    await page.getByLabel('Skipped date').fill('2026-12-25');
    await page.getByRole('button', { name: 'Add skipped date' }).click();
    await page.getByRole('textbox', { name: 'Limit value' }).fill('50');
    await choose(page, 'Limit unit', 'minutes');
    await page.getByLabel('Limit period start (UTC)').fill('2026-01-01T00:00');
    await page.getByLabel('Limit period end (UTC)').fill('2026-12-31T23:00');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Greet the customer by name.');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Weekly spring calls', level: 2 }).waitFor();
    scheduled = idInUrl(page);
    expect(await getCampaign(scheduled)).toMatchObject({
      title: 'Weekly spring calls', description: 'Spring offer to past buyers', campaign_type: 'Outbound', assistant_id: assistant.id,
      campaign_phone: '+14155550100', campaign_sip: 'sip:agent@example.com', max_call_attempts: 4, concurrent_call_limit: 2,
      call_interval: [30, 1440], call_allowed_from_time: '08:00:00', call_allowed_to_time: '20:00:00',
      work_schedule: { timezone: 'Europe/Berlin', days: { mon: [{ from: '09:00', to: '12:00' }], wed: [{ from: '13:00', to: '17:30' }] }, skip_dates: ['2026-12-25'] },
      auto_calls: true, is_auto_ai_message: true, is_archive: false, is_paused: false,
      limit_value: 50, limit_unit: 'minutes', limit_start: '2026-01-01T00:00:00.000Z', limit_end: '2026-12-31T23:00:00.000Z',
      campaign_data: { prompt: 'Greet the customer by name.' },
    });
    expect(Object.keys((await getCampaign(scheduled)).work_schedule.days)).toEqual(['mon', 'wed']);
    await page.context().close();
  });

  it('edits a campaign, and shows the API\'s 422 next to the field and the schedule it concerns', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.goto(`/campaigns/${scheduled}`);
    await page.getByRole('heading', { name: 'Weekly spring calls', level: 2 }).waitFor();
    // Equal bounds are refused (from > until is a window across midnight, so it is allowed).
    await page.getByLabel('Calling until').fill('08:00');
    await page.getByRole('button', { name: 'Save campaign' }).click();
    const until = page.getByLabel('Calling until');
    await expect.poll(() => until.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await until.getAttribute('aria-describedby')) ?? '';
    const messages = await Promise.all(describedBy.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(messages.join(' ')).toMatch(/must differ/);
    // A schedule interval ending before it starts: the message is shown by the schedule editor.
    await page.getByLabel('Calling until').fill('21:30');
    await page.getByLabel('Monday until (1)').fill('08:00');
    await page.getByRole('button', { name: 'Save campaign' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Schedule' }).textContent()).toMatch(/days\.mon\.0: `from` must be earlier than `to`/);
    await page.getByLabel('Monday until (1)').fill('11:45');
    await page.getByRole('button', { name: 'Add hours on Monday' }).click();
    await page.getByLabel('Monday from (2)').fill('14:00');
    await page.getByLabel('Monday until (2)').fill('23:00');
    await page.getByRole('button', { name: 'Remove retry 2' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Weekly spring calls, edited');
    await page.getByRole('button', { name: 'Save campaign' }).click();
    await page.getByRole('heading', { name: 'Weekly spring calls, edited', level: 2 }).waitFor();
    const saved = await getCampaign(scheduled);
    expect(saved).toMatchObject({
      title: 'Weekly spring calls, edited', call_allowed_to_time: '21:30:00', call_interval: [30],
      work_schedule: { timezone: 'Europe/Berlin', days: { mon: [{ from: '09:00', to: '11:45' }, { from: '14:00', to: '23:00' }], wed: [{ from: '13:00', to: '17:30' }] }, skip_dates: ['2026-12-25'] },
      limit_value: 50, limit_start: '2026-01-01T00:00:00.000Z',
    });
    // Nothing but the prompt's creation is in its history: an unchanged prompt is not sent again.
    expect(saved.prompt_history).toHaveLength(1);
    await page.context().close();
  });

  it('shows a sub-user\'s prompt change as pending, and the owner approves it', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Prompt review', campaign_data: { prompt: 'Version one.' } });
    const sub = await createSubUser(s.t, s.alice.id, [campaign.id]);
    const subPage = await s.page({ signIn: { email: sub.email, password: sub.password } });
    await subPage.goto(`/campaigns/${campaign.id}`);
    await subPage.getByRole('textbox', { name: 'Prompt', exact: true }).fill('Version two, from the sub-user.');
    await subPage.getByRole('button', { name: 'Save campaign' }).click();
    const pending = subPage.getByRole('article', { name: 'Prompt version 2' });
    await pending.getByText('pending', { exact: true }).waitFor();
    expect(await pending.getByRole('button', { name: /Approve/ }).count()).toBe(0);
    expect((await getCampaign(campaign.id)).prompt_history[0]).toMatchObject({ status: 'pending', created_by_sub_user_id: sub.id, prompt_data: { prompt: 'Version two, from the sub-user.' } });
    await subPage.context().close();

    const page = await s.page({ signIn: s.alice });
    await page.goto(`/campaigns/${campaign.id}`);
    const entry = page.getByRole('article', { name: 'Prompt version 2' });
    await entry.getByText(sub.fullName, { exact: false }).waitFor();
    await entry.getByRole('textbox', { name: 'Comment on version 2 (optional)' }).fill('Fine by me');
    await entry.getByRole('button', { name: 'Approve version 2' }).click();
    await entry.getByText('approved', { exact: true }).waitFor();
    expect((await getCampaign(campaign.id)).prompt_history[0]).toMatchObject({ status: 'approved', approved_by_user_id: s.alice.id, approval_comment: 'Fine by me' });
    await page.context().close();
  });

  it('pauses a campaign and queues exactly as many contacts of a status as the limit says', async () => {
    const campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Queue by status' });
    for (let i = 0; i < 5; i++) {
      const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: `+1415555${String(1200 + i)}`, status: 'failed' } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const page = await s.page({ signIn: s.alice });
    await page.goto(`/campaigns/${campaign.id}`);
    // The page's sections load before the click: on a loaded machine a click on a Pause that the
    // first answers re-render was lost, and Resume never came.
    await page.getByRole('heading', { name: 'Queue by status', level: 2 }).waitFor();
    await page.waitForLoadState('networkidle');
    // Paused, the queued contacts wait instead of being dialled, so their statuses can be counted.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await getCampaign(campaign.id)).is_paused).toBe(true);
    await choose(page, 'Queue contacts with status', 'Failed');
    await page.getByRole('textbox', { name: 'At most' }).fill('3');
    await page.getByRole('button', { name: 'Queue by status' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Queued' }).textContent()).toBe('Queued 3 contacts');
    const contacts = (await s.t.request({ method: 'GET', url: `/api/v1/contacts/campaign/${campaign.id}`, headers: s.alice.headers })).json().data as { status: string }[];
    expect(contacts.filter((c) => c.status === 'failed')).toHaveLength(2);
    expect(contacts.filter((c) => c.status === 'added_to_queue' || c.status === 'awaiting_queue')).toHaveLength(3);
    await page.context().close();
  });

  it('has no serious accessibility violation at 1280 px and fits 390 px', async () => {
    for (const width of [1280, 390]) {
      const page = await s.page({ width, signIn: s.alice, bypassCSP: true });
      await page.goto(`/campaigns/${scheduled}`);
      await page.getByRole('heading', { name: /Weekly spring calls/, level: 2 }).waitFor();
      await page.getByText(/contacts done/).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `campaign page at ${width} px`);
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0);
      await screenshot(page, `campaign-${width}`);
      await page.goto('/campaigns/new');
      await page.getByRole('heading', { name: 'New campaign', level: 2 }).waitFor();
      await expectAccessible(page, `new campaign at ${width} px`);
      await page.context().close();
    }
  });
});
