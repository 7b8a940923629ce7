import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, login, bearer, type Account } from './helpers/factories.ts';
import { promptsFor } from '../src/modules/campaigns/campaign-prompts.ts';

/** Calls use the latest approved prompt: a sub-user's pending proposal never reaches a call. */
let t: TestApp;
let owner: Account;
let subToken: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  const sub = await t.request({ method: 'POST', url: '/api/v1/sub-users', headers: owner.headers, payload: { username: 'prompt.writer', password: 'sub password 1' } });
  expect(sub.statusCode).toBe(200);
  subToken = await login(t, 'prompt.writer', 'sub password 1');
});
afterAll(() => t?.close());

async function campaign(body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: owner.headers, payload: { title: 'Prompted', campaign_type: 'Outbound', ...body } });
  expect(res.statusCode).toBe(200);
  const id = res.json().id as number;
  return id;
}

async function grantAndPropose(campaignId: number, prompt: string) {
  const subs = await t.request({ method: 'GET', url: '/api/v1/sub-users', headers: owner.headers });
  const subId = subs.json().data[0].id as number;
  expect((await t.request({ method: 'POST', url: `/api/v1/sub-users/${subId}/campaigns/${campaignId}`, headers: owner.headers })).statusCode).toBe(200);
  const put = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: bearer(subToken), payload: { campaign_data: { prompt } } });
  expect(put.statusCode).toBe(200);
  return put.json().prompt_history.find((h: { status: string }) => h.status === 'pending').id as number;
}

const promptOf = async (id: number) => (await promptsFor(t.deps.db, [id])).get(id);

describe('the prompt a call uses', () => {
  it('keeps the owner\'s approved prompt while a sub-user\'s proposal is pending, then uses the approved proposal', async () => {
    const id = await campaign({ campaign_data: { prompt: 'Owner prompt' } });
    expect(await promptOf(id)).toBe('Owner prompt');
    const pending = await grantAndPropose(id, 'Sub-user proposal');
    expect(await promptOf(id)).toBe('Owner prompt');
    const approve = await t.request({ method: 'POST', url: `/api/v1/campaigns/${id}/prompt-history/${pending}/approve`, headers: owner.headers });
    expect(approve.statusCode).toBe(200);
    expect(await promptOf(id)).toBe('Sub-user proposal');
  });

  it('uses no prompt when the only prompt is a pending or rejected proposal', async () => {
    const id = await campaign({});
    const pending = await grantAndPropose(id, 'Unreviewed');
    expect(await promptOf(id)).toBeNull();
    await t.request({ method: 'POST', url: `/api/v1/campaigns/${id}/prompt-history/${pending}/reject`, headers: owner.headers, payload: { comment: 'no' } });
    expect(await promptOf(id)).toBeNull();
  });

  it('treats an approved removal of the prompt as no prompt', async () => {
    const id = await campaign({ campaign_data: { prompt: 'Temporary' } });
    const put = await t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers: owner.headers, payload: { campaign_data: {} } });
    expect(put.statusCode).toBe(200);
    expect(await promptOf(id)).toBeNull();
  });
});
