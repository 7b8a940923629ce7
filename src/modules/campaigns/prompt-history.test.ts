import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import { latestApprovedPrompt } from './prompt-history.service.ts';

let t: TestApp;
let owner: Account;
let stranger: Account;
let sub: SubUser;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  stranger = await createAccount(t);
  campaignId = (await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: 'v1', voice: 'calm' } })).id;
  sub = await createSubUser(t, owner.id, [campaignId]);
});
afterAll(() => t?.close());

const put = (headers: Record<string, string>, payload: Record<string, unknown>, id = campaignId) =>
  t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers, payload });
const decide = (headers: Record<string, string>, historyId: number, action: 'approve' | 'reject', payload?: Record<string, unknown>, id = campaignId) =>
  t.request({ method: 'POST', url: `/api/v1/campaigns/${id}/prompt-history/${historyId}/${action}`, headers, ...(payload ? { payload } : {}) });
const history = async () => (await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}`, headers: owner.headers })).json().prompt_history;

describe('prompt history', () => {
  it('records the prompt of a new campaign as auto_approved by its owner, with the owner named', async () => {
    const [entry] = await history();
    expect(entry).toMatchObject({
      campaign_id: campaignId,
      prompt_data: { prompt: 'v1' },
      status: 'auto_approved',
      created_by_user_id: owner.id,
      created_by_user_email: owner.email,
      created_by_user_full_name: 'Test User',
      created_by_sub_user_id: null,
      approved_by_user_id: owner.id,
      approved_by_user_email: owner.email,
      approval_comment: null,
    });
    expect(new Date(entry.approved_at).getTime()).toBeGreaterThan(0);
    expect(await latestApprovedPrompt(t.deps.db, campaignId)).toEqual({ historyId: entry.id, prompt: 'v1' });
  });

  it('records nothing when an update keeps the same prompt or leaves campaign_data out', async () => {
    const before = (await history()).length;
    expect((await put(owner.headers, { campaign_data: { voice: 'bright', prompt: 'v1' } })).statusCode).toBe(200);
    expect((await put(owner.headers, { description: 'no prompt here' })).statusCode).toBe(200);
    expect(await history()).toHaveLength(before);
  });

  it('records an owner\'s change as auto_approved and in force at once, newest first', async () => {
    const res = await put(owner.headers, { campaign_data: { prompt: { system: 'v2' } } });
    expect(res.statusCode).toBe(200);
    const [newest, older] = res.json().prompt_history;
    expect(newest).toMatchObject({ prompt_data: { prompt: { system: 'v2' } }, status: 'auto_approved', created_by_user_id: owner.id });
    expect(newest.id).toBeGreaterThan(older.id);
    expect((await latestApprovedPrompt(t.deps.db, campaignId))?.prompt).toEqual({ system: 'v2' });
  });

  it('keeps a sub-user\'s change pending until the owner approves it with a comment', async () => {
    const res = await put(sub.headers, { campaign_data: { prompt: 'v3 by sub-user' } });
    expect(res.statusCode).toBe(200);
    const [pending] = res.json().prompt_history;
    expect(pending).toMatchObject({
      status: 'pending',
      prompt_data: { prompt: 'v3 by sub-user' },
      created_by_sub_user_id: sub.id,
      created_by_sub_user_email: sub.email,
      created_by_sub_user_full_name: sub.fullName,
      created_by_user_id: null,
      approved_by_user_id: null,
      approved_at: null,
    });
    expect(res.json().campaign_data.prompt).toBe('v3 by sub-user');
    expect((await latestApprovedPrompt(t.deps.db, campaignId))?.prompt).toEqual({ system: 'v2' });

    const approved = await decide(owner.headers, pending.id, 'approve', { comment: 'Looks good' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: pending.id, status: 'approved', approval_comment: 'Looks good', approved_by_user_id: owner.id, approved_by_user_email: owner.email, created_by_sub_user_id: sub.id });
    expect(approved.json().approved_at).toEqual(expect.any(String));
    expect(await latestApprovedPrompt(t.deps.db, campaignId)).toEqual({ historyId: pending.id, prompt: 'v3 by sub-user' });

    const again = await decide(owner.headers, pending.id, 'reject');
    expect(again.statusCode).toBe(409);
    expect(typeof again.json().detail).toBe('string');
  });

  it('lets the owner reject a pending change, which calls then never use', async () => {
    const res = await put(sub.headers, { campaign_data: { prompt: 'v4 rejected' } });
    const [pending] = res.json().prompt_history;
    expect((await decide(sub.headers, pending.id, 'reject', { comment: 'mine' })).statusCode).toBe(403);
    expect((await decide(sub.headers, pending.id, 'approve')).statusCode).toBe(403);
    const rejected = await decide(owner.headers, pending.id, 'reject', { comment: 'Too long' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'rejected', approval_comment: 'Too long', approved_by_user_id: owner.id });
    expect((await latestApprovedPrompt(t.deps.db, campaignId))?.prompt).toBe('v3 by sub-user');
    expect((await decide(owner.headers, pending.id, 'approve')).statusCode).toBe(409);
    const auto = (await history()).find((e: { status: string }) => e.status === 'auto_approved');
    expect((await decide(owner.headers, auto.id, 'reject')).statusCode).toBe(409);
  });

  it('records removing the prompt as a null prompt', async () => {
    const res = await put(owner.headers, { campaign_data: { voice: 'calm' } });
    expect(res.json().prompt_history[0]).toMatchObject({ prompt_data: { prompt: null }, status: 'auto_approved' });
    expect((await latestApprovedPrompt(t.deps.db, campaignId))?.prompt).toBeNull();
    expect((await put(owner.headers, { campaign_data: null })).json().prompt_history).toHaveLength(res.json().prompt_history.length);
  });

  it('answers 404 for an unknown entry or one of another campaign, and 403 for another account', async () => {
    const otherCampaign = await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: 'other' } });
    const [entry] = otherCampaign.prompt_history;
    expect((await decide(owner.headers, entry.id, 'approve')).statusCode).toBe(404);
    expect((await decide(owner.headers, 99999999, 'approve')).statusCode).toBe(404);
    expect((await decide(owner.headers, 1, 'approve', undefined, 99999999)).statusCode).toBe(404);
    const foreign = await decide(stranger.headers, entry.id, 'approve', undefined, otherCampaign.id);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ detail: 'Not enough permissions' });
    const ungranted = await decide(sub.headers, entry.id, 'approve', undefined, otherCampaign.id);
    expect(ungranted.statusCode).toBe(403);
    expect(await latestApprovedPrompt(t.deps.db, 99999999)).toBeUndefined();
  });

  it('decides a pending entry once when two decisions arrive together', async () => {
    const [pending] = (await put(sub.headers, { campaign_data: { prompt: 'raced' } })).json().prompt_history;
    const answers = await Promise.all([decide(owner.headers, pending.id, 'approve'), decide(owner.headers, pending.id, 'reject')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.statusCode === 200)!.json();
    const [stored] = (await history()).filter((e: { id: number }) => e.id === pending.id);
    expect(stored.status).toBe(winner.status);
  });

  it('keeps the newest approved prompt in force when an older proposal is approved later', async () => {
    const [proposal] = (await put(sub.headers, { campaign_data: { prompt: 'older proposal' } })).json().prompt_history;
    const [newer] = (await put(owner.headers, { campaign_data: { prompt: 'newer by owner' } })).json().prompt_history;
    expect((await decide(owner.headers, proposal.id, 'approve')).statusCode).toBe(200);
    expect(await latestApprovedPrompt(t.deps.db, campaignId)).toEqual({ historyId: newer.id, prompt: 'newer by owner' });
  });

  it('refuses a comment that is not a string with 422', async () => {
    const res = await put(sub.headers, { campaign_data: { prompt: 'v5' } });
    const [pending] = res.json().prompt_history;
    const bad = await decide(owner.headers, pending.id, 'approve', { comment: { text: 'x' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'comment']);
  });
});
