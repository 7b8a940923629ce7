import type { Locator, Page, Response } from 'playwright-core';

/**
 * Helpers for the analytics and integrations browser tests: choosing in Mantine selects as a
 * person does (the field by its label, then the option by its text), reading a field's
 * description or error the way assistive technology does (aria-describedby), and a curl
 * command shown on a page turned into the request it makes.
 */

/** Opens the select or multi-select labelled `label` (inside `within`) and picks the option named `option`. */
export async function choose(page: Page, label: string, option: string, within: Page | Locator = page) {
  await within.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The texts a field's aria-describedby points to (its description and its error), joined. */
export async function describedBy(field: Locator): Promise<string> {
  return field.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
    .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' '));
}

/** The next response of the page to `path` whose query holds every `has` pair (after the action `then` starts it). */
export async function responseTo(page: Page, path: string, has: Record<string, string>, then: () => Promise<unknown>): Promise<Response> {
  const waiting = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === path && r.request().method() === 'GET' && Object.entries(has).every(([k, v]) => url.searchParams.get(k) === v);
  });
  const [response] = await Promise.all([waiting, then()]);
  return response;
}

/** The request a shown curl command makes: `curl -X METHOD 'url' -H 'K: V' ... -d 'body'`, single-quoted as the page writes it. */
export function parseCurl(command: string): { method: string; url: string; headers: Record<string, string>; body: string | undefined } {
  const flat = command.replace(/\\\n/g, ' ');
  const method = /-X\s+([A-Z]+)/.exec(flat)?.[1] ?? 'GET';
  const url = /curl\s+(?:-X\s+[A-Z]+\s+)?'([^']+)'/.exec(flat)?.[1];
  if (!url) throw new Error(`no URL in the curl command: ${command}`);
  const headers: Record<string, string> = {};
  for (const m of flat.matchAll(/-H\s+'([^':]+):\s*([^']*)'/g)) headers[m[1]!.toLowerCase()] = m[2]!;
  const body = /-d\s+'([^']*)'/.exec(flat)?.[1];
  return { method, url, headers, body };
}
