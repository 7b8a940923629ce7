import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENT_TYPES as SERVICE_EVENT_TYPES } from '../../src/modules/live/live-event-types.ts';
import { LIVE_EVENT_TYPES as DASHBOARD_EVENT_TYPES } from '../../ui/src/api/live-events.ts';
import { createCampaignViaApi, createSubUser } from '../helpers/factories.ts';
import { browserScene, expectAccessible, HAS_BROWSER, type BrowserScene } from './browser-scene.ts';

/**
 * The Live page and the pages that follow the live stream, in Debian's Chromium against the whole
 * service. The simulator runs at SIM_TIME_SCALE 10: a call of 80 simulated seconds with four
 * turns lasts 8 s, a turn every 2 s, slow enough to watch its transcript grow, short enough
 * for a test.
 */
let s: BrowserScene;
let north: { id: number; title: string };
let south: { id: number; title: string };
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  s = await browserScene({ SIM_TIME_SCALE: '10' });
  const open = { call_allowed_from_time: '00:00:00', call_allowed_to_time: '23:59:59' };
  north = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Live north', ...open });
  south = await createCampaignViaApi(s.t, s.alice.headers, { title: 'Live south', ...open });
}, 120_000);
afterAll(async () => s?.close());

const SCRIPT = [
  { role: 'assistant', text: 'Hello, this is Nora from the bakery.' },
  { role: 'user', text: 'Oh hello, what is it about?' },
  { role: 'assistant', text: 'Our new rye loaf, would you like a sample?' },
  { role: 'user', text: 'Yes please, send one over.' },
];
const NO_CALLS = 'No calls in progress. Calls appear here as soon as the dialer starts them.';

let phones = 0;
/** A contact of the campaign whose call the simulator plays as `_sim` says, queued at once; answers the call's id once the dialer started it. */
async function startCall(campaign: { id: number }, sim: Record<string, unknown>): Promise<number> {
  const phone = `+1212555${String(700 + ++phones).padStart(4, '0')}`;
  const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaign.id, phone_number: phone, status: 'new', contact_data: { name: `Nell ${phones}`, _sim: { status: 'finished', ...sim } } } });
  expect(res.statusCode, res.body).toBe(200);
  const queued = await s.t.request({ method: 'POST', url: `/api/v1/campaigns/enqueue_calls/${campaign.id}`, headers: s.alice.headers });
  expect(queued.statusCode, queued.body).toBe(200);
  let id: number | undefined;
  await expect.poll(async () => {
    const calls = await s.t.request({ method: 'GET', url: `/api/v1/calls/?campaign_id=${campaign.id}&phone_number=${encodeURIComponent(phone)}`, headers: s.alice.headers });
    id = calls.json().data[0]?.id;
    return id;
  }, { timeout: 30_000, interval: 100 }).toBeDefined();
  return id!;
}

/** Waits until the account has no call in progress (so a page may be watched while nothing happens). */
async function noCallInProgress() {
  await expect.poll(async () => (await s.t.request({ method: 'GET', url: '/api/v1/live/calls', headers: s.alice.headers })).json().calls, { timeout: 40_000, interval: 250 }).toEqual([]);
}

/** When a call has ended, as the API says. */
async function callEnded(callId: number) {
  await expect.poll(async () => (await s.t.request({ method: 'GET', url: `/api/v1/calls/${callId}`, headers: s.alice.headers })).json().status, { timeout: 30_000, interval: 250 }).not.toMatch(/^(new|in progress)$/);
}

/** What the card of a call shows now: its state badge and the number of turns of its transcript (null: no card). */
async function cardState(page: Page, callId: number): Promise<{ state: string; turns: number } | null> {
  const card = page.getByRole('article', { name: `Call ${callId}`, exact: true });
  if (await card.count() === 0) return null;
  const state = (await card.locator('.mantine-Badge-root').first().textContent({ timeout: 2000 }).catch(() => null)) ?? '?';
  const turns = await card.getByRole('log').getByText(/^(Assistant|Contact)$/).count().catch(() => 0);
  return { state, turns };
}

describe('the live stream\'s event names', () => {
  it('are the same in the dashboard as in the service', () => {
    expect([...DASHBOARD_EVENT_TYPES]).toEqual([...SERVICE_EVENT_TYPES]);
  });
});

describe.skipIf(!HAS_BROWSER)('the Live page', () => {
  it('shows a call\'s transcript turn by turn while it runs, then its outcome, then lets it go', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live', exact: true }).click();
    await page.getByRole('heading', { name: 'Live', level: 2 }).waitFor();
    await page.getByText(NO_CALLS).waitFor();

    const callId = await startCall(north, { duration: 80, action_status: 'interested', transcript: SCRIPT });
    const card = page.getByRole('article', { name: `Call ${callId}`, exact: true });
    await card.waitFor({ timeout: 30_000 });
    expect(await page.getByRole('region', { name: 'Live north' }).getByRole('article', { name: `Call ${callId}` }).count()).toBe(1);
    expect(await card.getByRole('link', { name: `Nell ${phones}` }).getAttribute('href')).toMatch(/^\/contacts\/\d+$/);

    // Every state the card goes through, sampled until the call has ended.
    const seen: { state: string; turns: number }[] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const now = await cardState(page, callId);
      if (now && (seen.at(-1)?.state !== now.state || seen.at(-1)?.turns !== now.turns)) seen.push(now);
      if (now?.state === 'Ended') break;
      await page.waitForTimeout(100);
    }
    const during = seen.filter((x) => x.state === 'Answered' && x.turns > 0 && x.turns < SCRIPT.length);
    expect(new Set(during.map((x) => x.turns)).size, `intermediate states seen: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(2);
    expect(seen.map((x) => x.turns), 'the transcript only grows').toEqual([...seen.map((x) => x.turns)].sort((a, b) => a - b));
    expect(seen.at(-1), JSON.stringify(seen)).toEqual({ state: 'Ended', turns: SCRIPT.length });

    // The turns in order, each named by who spoke; then the outcome.
    const log = card.getByRole('log', { name: `Transcript of call ${callId}` });
    for (const turn of SCRIPT) expect(await log.getByText(turn.text).count()).toBe(1);
    expect(await log.getByText(/^(Assistant|Contact)$/).allTextContents()).toEqual(['Assistant', 'Contact', 'Assistant', 'Contact']);
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/Finished · outcome: Interested/i);

    // Shown a few seconds, then the board is empty again.
    await page.getByText(NO_CALLS).waitFor({ timeout: 30_000 });
    expect(await card.count()).toBe(0);
    await page.context().close();
  });

  it('plays a call to an operator who listens: mu-law arrives, is decoded and is not silence', async () => {
    const page = await s.page({ signIn: s.alice });
    await page.goto(`${s.baseUrl}/live?campaign_id=${north.id}`);
    await page.getByRole('heading', { name: 'Live', level: 2 }).waitFor();
    const callId = await startCall(north, { duration: 200, transcript: SCRIPT });
    const card = page.getByRole('article', { name: `Call ${callId}`, exact: true });
    await card.getByRole('button', { name: `Listen to call ${callId}` }).click({ timeout: 20_000 });
    const meter = card.locator('[data-received]');
    // A second of audio (8,000 bytes) with speech in it: espeak-ng's voice, relayed as mu-law and decoded by the page.
    await expect.poll(async () => Number(await meter.getAttribute('data-received')), { timeout: 30_000, interval: 200 }).toBeGreaterThan(8000);
    await expect.poll(async () => Number(await meter.getAttribute('data-peak')), { timeout: 10_000, interval: 200 }).toBeGreaterThan(2000);
    await card.getByRole('status').filter({ hasText: /Listening · [0-9.]+ s received/ }).waitFor();
    await card.getByRole('button', { name: `Stop listening to call ${callId}` }).click();
    await card.getByRole('button', { name: `Listen to call ${callId}` }).waitFor();
    const audit = await s.t.request({ method: 'GET', url: '/api/v1/audit-events/?kind=call.listened', headers: s.alice.headers });
    expect(audit.json().data.map((e: { subject: { id: number } }) => e.subject.id)).toContain(callId);
    await callEnded(callId);
  }, 90_000);

  it('shows a sub-user only the calls of the campaigns granted to it', async () => {
    const sub = await createSubUser(s.t, s.alice.id, [north.id]);
    const page = await s.page({ signIn: { email: sub.email, password: sub.password } });
    await page.goto('/live');
    await page.getByRole('heading', { name: 'Live', level: 2 }).waitFor();
    await page.getByRole('status').filter({ hasText: /in progress/ }).waitFor();

    const hidden = await startCall(south, { duration: 120, transcript: SCRIPT });
    const shown = await startCall(north, { duration: 120, transcript: SCRIPT });
    await page.getByRole('article', { name: `Call ${shown}`, exact: true }).getByRole('log').getByText(SCRIPT[0]!.text).waitFor({ timeout: 30_000 });
    // Both are in progress (the account sees both), and the hidden one has spoken too.
    const owner = await s.t.request({ method: 'GET', url: '/api/v1/live/calls', headers: s.alice.headers });
    const ownerCalls = owner.json().calls as { id: number; transcript: unknown[] }[];
    expect(ownerCalls.map((c) => c.id)).toEqual(expect.arrayContaining([hidden, shown]));
    await expect.poll(async () => ((await s.t.request({ method: 'GET', url: '/api/v1/live/calls', headers: s.alice.headers })).json().calls as { id: number; transcript: unknown[] }[])
      .find((c) => c.id === hidden)?.transcript.length ?? 0).toBeGreaterThan(0);
    expect(await page.getByRole('article', { name: `Call ${hidden}`, exact: true }).count()).toBe(0);
    expect(await page.getByText(south.title).count(), 'not even among the campaigns to choose').toBe(0);
    // Reloaded (the state read afresh: the call with what it said so far), still not.
    await page.reload();
    await page.getByRole('article', { name: `Call ${shown}`, exact: true }).getByRole('log').getByText(SCRIPT[0]!.text).waitFor();
    expect(await page.getByRole('article', { name: `Call ${hidden}`, exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('is accessible with a call in progress, filtered by campaign, at 1280 and 390 px', async () => {
    const page = await s.page({ signIn: s.alice, bypassCSP: true });
    const callId = await startCall(north, { duration: 150, action_status: 'interested', transcript: SCRIPT });
    await page.goto(`/live?campaign_id=${north.id}`);
    const card = page.getByRole('article', { name: `Call ${callId}`, exact: true });
    await card.getByRole('log').getByText(SCRIPT[1]!.text).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('region', { name: south.title }).count()).toBe(0);
    await expectAccessible(page, 'the Live page with a call in progress');
    mkdirSync(new URL('../../.scratch/', import.meta.url), { recursive: true });
    await page.screenshot({ path: new URL('../../.scratch/live-page.png', import.meta.url).pathname, fullPage: true });
    // A phone's width: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 900 });
    await expectAccessible(page, 'the Live page at 390 px');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: new URL('../../.scratch/live-page-390.png', import.meta.url).pathname, fullPage: true });
    await page.context().close();
  });
});

describe.skipIf(!HAS_BROWSER)('pages that follow the live stream', () => {
  it('the calls list asks for nothing while idle and shows a call that starts', { timeout: 120_000 }, async () => {
    await noCallInProgress();
    const page = await s.page({ signIn: s.alice });
    const listRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/calls/') listRequests.push(r.url());
    });
    await page.goto('/calls');
    await page.getByRole('status').filter({ hasText: /\d+ calls?$/ }).waitFor();
    // Longer than the 5 s the list used to poll at: not one request while nothing happens.
    const before = listRequests.length;
    await page.waitForTimeout(6500);
    expect(listRequests.length, 'list requests while idle').toBe(before);

    const callId = await startCall(south, { duration: 60, transcript: SCRIPT });
    const row = page.getByRole('table', { name: 'Calls' }).getByRole('link', { name: `Call ${callId}`, exact: true });
    await row.waitFor({ timeout: 20_000 });
    // Its end is shown too (a call.ended), then quiet again.
    const rowOfCall = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Call ${callId}`, exact: true }) });
    await expect.poll(() => rowOfCall.textContent(), { timeout: 30_000 }).toMatch(/Finished/);
    const afterEnd = listRequests.length;
    await page.waitForTimeout(3000);
    expect(listRequests.length - afterEnd, 'list requests after the call ended').toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it('the call page of a call in progress shows its transcript as it is spoken, then the ended call', async () => {
    const page = await s.page({ signIn: s.alice });
    const callId = await startCall(south, { duration: 80, transcript: SCRIPT });
    await page.goto(`/calls/${callId}`);
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText(SCRIPT[0]!.text).waitFor({ timeout: 20_000 });
    await transcript.getByText(SCRIPT[1]!.text).waitFor({ timeout: 20_000 });
    // Ended, the call shows its stored transcript and status.
    await page.getByRole('region', { name: 'Transcript' }).getByText(SCRIPT[3]!.text).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Finished', { exact: true }).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('the campaign page shows its calls in progress and its figures follow as calls end, over one stream', async () => {
    const page = await s.page({ signIn: s.alice });
    const streams: string[] = [];
    // Only the campaign page's streams (the page signed in on may open the account's before it goes).
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/live/events' && new URL(r.frame().url()).pathname === `/campaigns/${south.id}`) streams.push(r.url());
    });
    await page.goto(`/campaigns/${south.id}`);
    const live = page.getByRole('region', { name: 'Calls in progress' });
    const outcomes = page.getByRole('region', { name: 'Outcomes' });
    await outcomes.getByText(/\d+ calls? · /).waitFor();
    const callId = await startCall(south, { duration: 60, action_status: 'interested', transcript: SCRIPT });
    const card = live.getByRole('article', { name: `Call ${callId}`, exact: true });
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByRole('link', { name: `Nell ${phones}` }).count()).toBe(1);
    await card.getByText(`Assistant: ${SCRIPT[0]!.text}`).waitFor();
    await page.screenshot({ path: new URL('../../.scratch/campaign-page.png', import.meta.url).pathname });
    await callEnded(callId);
    // The outcomes read again after the end, without polling: the API's figures, the new call counted.
    const answer = await s.t.request({ method: 'GET', url: `/api/v1/analytics/detailed?campaign_id=${south.id}&start_date=${encodeURIComponent(new Date(Date.now() - 3650 * 24 * 3600 * 1000).toISOString())}`, headers: s.alice.headers });
    expect(answer.statusCode, answer.body).toBe(200);
    const report = answer.json();
    const expected = `${report.totals.calls} call${report.totals.calls === 1 ? '' : 's'} · ${report.totals.answered} answered · ${report.totals.successful} successful`;
    await expect.poll(() => outcomes.getByText(/ · \d+ successful/).textContent(), { timeout: 20_000 }).toContain(expected);
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/Finished · outcome: Interested/);
    // Its sections share one connection, narrowed to the campaign (a reconnection asks the same address again).
    expect(streams.length).toBeGreaterThan(0);
    expect([...new Set(streams.map((u) => new URL(u).search))]).toEqual([`?campaign_id=${south.id}`]);
    await page.context().close();
  });
});
