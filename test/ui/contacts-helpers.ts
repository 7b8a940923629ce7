import type { Locator, Page } from 'playwright-core';
import type { BrowserScene } from './browser-scene.ts';

/** The field labelled `label` in `scope`: exactly that label, or that label with the required asterisk Mantine adds. */
export function labelled(scope: Locator | Page, label: string): Locator {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`));
}

/**
 * Chooses `option` in the Mantine Select labelled `label` inside `scope`, as a person does: open it,
 * click the option; and, as a person would, open it again when the list closed before the click (a
 * re-render on a loaded machine closed it: the option is then found but never visible).
 */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  for (let attempt = 1; ; attempt++) {
    await labelled(scope, label).click();
    try {
      await page.getByRole('option', { name: option, exact: true }).click({ timeout: attempt < 3 ? 8_000 : 30_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** The text of what describes a field (aria-describedby: its description and its error message). */
export async function describedBy(field: Locator): Promise<string> {
  // Runs in the page (no DOM types in the test's TypeScript): the element and its document, typed as used.
  type El = { getAttribute(n: string): string | null; textContent: string | null; ownerDocument: { getElementById(id: string): El | null } };
  return field.evaluate((el: El) => (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
    .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' '));
}

export type ApiContact = { id: number; phone_number: string; status: string; campaign_id: number };

/** The API's list of contacts for a query string (as alice): its count and the page of rows. */
export async function listContacts(s: BrowserScene, query: string): Promise<{ count: number; data: ApiContact[] }> {
  const res = await s.t.request({ method: 'GET', url: `/api/v1/contacts/?${query}`, headers: s.alice.headers });
  if (res.statusCode !== 200) throw new Error(`GET contacts ?${query}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Adds a contact through the API (as alice). */
export async function addContactViaApi(s: BrowserScene, campaignId: number, phone: string, status = 'new'): Promise<ApiContact> {
  const res = await s.t.request({ method: 'POST', url: '/api/v1/contacts/', headers: s.alice.headers, payload: { campaign_id: campaignId, phone_number: phone, status } });
  if (res.statusCode !== 200) throw new Error(`POST contact ${phone}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The CSV the import test uploads: 500 distinct valid US numbers, and three rows that are not phone numbers. */
export function importCsv(bad: { at: number; text: string }[]): { csv: string; good: number } {
  const rows: string[] = [];
  for (let i = 0; i < 500; i++) rows.push(`+1212555${String(1000 + i).padStart(4, '0')},Person ${i}`);
  for (const b of [...bad].sort((x, y) => x.at - y.at)) rows.splice(b.at, 0, `${b.text},Bad ${b.at}`);
  return { csv: `phone,name\n${rows.join('\n')}\n`, good: 500 };
}
