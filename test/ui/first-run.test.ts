import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { CHROMIUM, expectAccessible, HAS_BROWSER, screenshot } from './browser-scene.ts';

/**
 * The operator's first minute, in Debian's Chromium against a service with no account at all (so
 * not the usual scene, which starts with one): the sign-in page offers the owner account, creating
 * it signs the browser in, and from then on every browser gets the ordinary sign-in form.
 */
let t: TestApp;
let browser: Browser;
let baseUrl: string;
beforeAll(async () => {
  if (!HAS_BROWSER) return;
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const newPage = async (bypassCSP = false) => (await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl, bypassCSP })).newPage();

describe.skipIf(!HAS_BROWSER)('first run in the browser', () => {
  it('offers the owner account when none exists, signs the new owner in, then offers it to nobody', async () => {
    const page = await newPage(true);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome to voice-campaigns' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await expectAccessible(page, 'the owner account form');
    await screenshot(page, 'first-run-owner-1280');

    // The service's rules, answered under their field.
    // Required fields' labels carry Mantine's asterisk: found by role and accessible name, or by their start.
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('owner@example.com');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Olga Owner');
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel(/^Repeat the password/).fill('short');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByText(/at least 8 characters/).first().waitFor();
    await screenshot(page, 'first-run-owner-refused-1280');

    await page.getByLabel(/^Password/).fill('the owner password');
    await page.getByLabel(/^Repeat the password/).fill('the owner passwort');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByText('The passwords differ').waitFor();
    await page.getByLabel(/^Repeat the password/).fill('the owner password');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('link', { name: 'Profile of owner@example.com' }).waitFor();
    const users = await t.deps.db.selectFrom('users').select(['email', 'full_name', 'is_superuser']).execute();
    expect(users).toEqual([{ email: 'owner@example.com', full_name: 'Olga Owner', is_superuser: true }]);

    // Another browser: the offer is gone for good, and the owner signs in the ordinary way.
    const other = await newPage();
    await other.goto('/');
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await other.getByRole('heading', { name: 'Welcome to voice-campaigns' }).count()).toBe(0);
    await other.getByLabel('Email', { exact: true }).fill('owner@example.com');
    await other.getByLabel('Password', { exact: true }).fill('the owner password');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('navigation', { name: 'Main' }).waitFor();
    await other.context().close();
    await page.context().close();
  });
});
