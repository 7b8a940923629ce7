import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignViaApi } from '../helpers/factories.ts';
import { endCallsOf } from '../helpers/breaker-scene.ts';
import { browserScene, expectAccessible, HAS_BROWSER, screenshot, type BrowserScene } from './browser-scene.ts';

/**
 * The circuit breaker in Debian's Chromium: a campaign that paused itself says why in a banner
 * with Resume, and its protection settings are edited on the campaign page.
 */
let s: BrowserScene;
let campaign: { id: number; title: string };

beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene();
  campaign = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Fragile lines' });
}, 120_000);
afterAll(async () => s?.close());

const summary = async () => (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}/summary`, headers: s.alice.headers })).json();

describe.skipIf(!HAS_BROWSER)('the circuit breaker in the browser', () => {
  it('shows why the campaign paused itself, and Resume clears it', async () => {
    // 3 then 6: the first batch is under the minimum of 5 only if counted alone; together 6 of 9 fail.
    await endCallsOf(s.t, campaign.id, ['failed', 'finished', 'voicemail']);
    await endCallsOf(s.t, campaign.id, ['failed', 'invalid number', 'rejected', 'failed', 'failed', 'busy_or_rejected']);
    expect((await summary()).paused_by).toMatchObject({ failures: 6, attempts: 9 });
    for (const width of [1280, 390]) {
      const page = await s.page({ signIn: s.alice, width, bypassCSP: true });
      await page.goto(`/campaigns/${campaign.id}`);
      await page.getByRole('alert', { name: 'Paused automatically' }).getByText('Paused automatically: 6 of 9 calls failed in the last 2 minutes').waitFor();
      // Checked once the page's lists have loaded (their loaders come and go).
      await page.getByText(/contacts done/).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `campaign paused by the breaker at ${width} px`);
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0);
      await screenshot(page, `campaign-paused-by-breaker-${width}`);
      await page.close();
    }
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    const banner = page.getByRole('alert', { name: 'Paused automatically' });
    await banner.getByRole('button', { name: 'Resume' }).click();
    await banner.waitFor({ state: 'detached' });
    const after = await summary();
    expect(after.paused_by).toBeNull();
    expect(after.next_call_reason).not.toBe('campaign paused');
  });

  it('edits the protection settings, in percent, within their bounds', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    await page.goto(`/campaigns/${campaign.id}`);
    const form = page.getByRole('form', { name: 'Protection settings' });
    await expect.poll(() => form.getByRole('textbox', { name: 'Failed calls (%)' }).inputValue()).toBe('50%');
    await form.getByRole('textbox', { name: 'Failed calls (%)' }).fill('80');
    await form.getByRole('textbox', { name: 'Window (seconds)' }).fill('300');
    await form.getByRole('button', { name: 'Save protection' }).click();
    await page.getByText('Protection saved').waitFor();
    const saved = (await s.t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}/protection`, headers: s.alice.headers })).json();
    expect(saved).toMatchObject({ breaker_enabled: true, failure_rate_threshold: 0.8, window_seconds: 300, min_attempts: 5 });
    // Out of its bounds, a number is brought back to the nearest one it allows, as every number field of the dashboard does.
    await form.getByRole('textbox', { name: 'Minimum calls' }).fill('5000');
    await form.getByRole('textbox', { name: 'Window (seconds)' }).click();
    await expect.poll(() => form.getByRole('textbox', { name: 'Minimum calls' }).inputValue()).toBe('1000');
  });
});
